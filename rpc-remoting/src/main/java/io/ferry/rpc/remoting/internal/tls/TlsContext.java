package io.ferry.rpc.remoting.internal.tls;

import io.ferry.rpc.option.Option;
import io.ferry.rpc.remoting.TlsOptions;
import io.netty.buffer.ByteBufAllocator;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslHandler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.security.cert.X509Certificate;
import java.time.Clock;
import java.util.List;
import java.util.function.BiFunction;

import static io.ferry.rpc.remoting.TransportOptions.CLIENT_KEY_CERT_CHAIN_PATH;
import static io.ferry.rpc.remoting.TransportOptions.CLIENT_PRIVATE_KEY_PATH;
import static io.ferry.rpc.remoting.TransportOptions.SERVER_KEY_CERT_CHAIN_PATH;
import static io.ferry.rpc.remoting.TransportOptions.SERVER_PRIVATE_KEY_PATH;

/**
 * One side's TLS: the {@link SslContext} new connections get their handler from, rebuilt when its files change.
 * Open connections keep the context they were made with; a replacement that cannot be built, or whose certificate
 * is out of its validity period, is refused with a log line naming the file, and the one in use stays.
 */
public final class TlsContext {
    private static final Logger log = LoggerFactory.getLogger(TlsContext.class);

    private final TlsOptions options;
    private final String side;
    private final List<Option<String>> files;
    private final BiFunction<TlsOptions, TlsMaterial, SslContext> builder;
    private final Option<String> chainOption;
    private final Option<String> keyOption;
    private final Clock clock;
    private volatile SslContext current;
    private TlsMaterial material;
    /** The reload problem last logged, so that it is logged once; null when none. Reload thread only. */
    private String problem;
    private boolean expiryWarned;

    private TlsContext(TlsOptions options, String side, List<Option<String>> files,
                       BiFunction<TlsOptions, TlsMaterial, SslContext> builder, Option<String> chainOption,
                       Option<String> keyOption, Clock clock) {
        this.options = options;
        this.side = side;
        this.files = files;
        this.builder = builder;
        this.chainOption = chainOption;
        this.keyOption = keyOption;
        this.clock = clock;
        TlsMaterial first = TlsMaterial.read(options, files);
        String unusable = checked(first);
        if (unusable != null) {
            log.warn("{} TLS: {}: every handshake will fail until it is replaced", side, unusable);
        }
        this.current = builder.apply(options, first);
        this.material = first;
    }

    /**
     * A provider's TLS, ready for handshakes.
     *
     * @throws IllegalArgumentException naming the option and file that cannot be used
     */
    public static TlsContext server(TlsOptions options, Clock clock) {
        return new TlsContext(options, "provider", SslContexts.SERVER_FILES, SslContexts::server,
                SERVER_KEY_CERT_CHAIN_PATH, SERVER_PRIVATE_KEY_PATH, clock);
    }

    /**
     * A consumer's TLS, ready for handshakes.
     *
     * @throws IllegalArgumentException naming the option and file that cannot be used
     */
    public static TlsContext client(TlsOptions options, Clock clock) {
        if (!options.verifiesHost()) {
            log.warn("TLS without host verification (insecureSkipHostVerification): any certificate a trusted CA "
                    + "issued, for any host, is accepted as any provider's");
        }
        return new TlsContext(options, "consumer", SslContexts.CLIENT_FILES, SslContexts::client,
                CLIENT_KEY_CERT_CHAIN_PATH, CLIENT_PRIVATE_KEY_PATH, clock);
    }

    public TlsOptions options() {
        return options;
    }

    /** Whether it was made from files (else from the JVM's trusted CAs alone: nothing to reload). */
    public boolean hasFiles() {
        return !material.isEmpty();
    }

    /** A provider connection's handler, from the context in use now. */
    public SslHandler newServerHandler(ByteBufAllocator alloc) {
        return configured(current.newHandler(alloc));
    }

    /** A consumer connection's handler for a provider at {@code host} (a name or an IP address) and port. */
    public SslHandler newClientHandler(ByteBufAllocator alloc, String host, int port) {
        return configured(current.newHandler(alloc, host, port));
    }

    private SslHandler configured(SslHandler handler) {
        handler.setHandshakeTimeoutMillis(options.handshakeTimeout().toMillis());
        return handler;
    }

    /**
     * Reads the files again; if any changed, builds a context from them and uses it for new handshakes. Called
     * by one thread at a time (a {@link TlsReloader}'s).
     *
     * @return whether a new context is in use
     */
    public boolean reloadIfChanged() {
        warnIfExpiringSoon();
        TlsMaterial next;
        try {
            next = TlsMaterial.read(options, files);
        } catch (IllegalArgumentException e) {
            problem("not reloaded, still using the files read before: " + e.getMessage());
            return false;
        }
        List<String> changed = next.changedSince(material);
        if (changed.isEmpty()) {
            problem = null;
            return false;
        }
        try {
            String unusable = checked(next);
            if (unusable != null) {
                throw new IllegalArgumentException(unusable);
            }
            current = builder.apply(options, next);
        } catch (RuntimeException e) {
            // tried again every interval (a renewed certificate may be valid from a minute from now), said once
            problem("refused the changed " + changed + ": " + e.getMessage() + "; still using the files read before");
            return false;
        }
        material = next;
        problem = null;
        expiryWarned = false;
        log.info("{} TLS: reloaded {}; new handshakes use it, open connections keep theirs", side, changed);
        return true;
    }

    /** Logs a reload problem once, not every interval while it lasts. */
    private void problem(String text) {
        if (!text.equals(problem)) {
            problem = text;
            log.warn("{} TLS: {}", side, text);
        }
    }

    /** A certificate in use that expires within a week is worth one line, before handshakes start failing. */
    private void warnIfExpiringSoon() {
        TlsMaterial.File chain = material.file(chainOption);
        if (chain == null || expiryWarned) {
            return;
        }
        java.time.Instant notAfter = KeyPairCheck.leaf(chain).getNotAfter().toInstant();
        if (notAfter.isBefore(clock.instant().plus(java.time.Duration.ofDays(7)))) {
            expiryWarned = true;
            log.warn("{} TLS: {} expires {}: replace it (it is reloaded when the file changes)", side,
                    chain.describe(), notAfter);
        }
    }

    /** Why the material's certificate cannot serve now, or null; throws when the key is not the certificate's. */
    private String checked(TlsMaterial candidate) {
        TlsMaterial.File chain = candidate.file(chainOption);
        TlsMaterial.File key = candidate.file(keyOption);
        if (chain == null || key == null) {
            return null;
        }
        X509Certificate leaf = KeyPairCheck.leaf(chain);
        KeyPairCheck.keyMatches(leaf, chain, key);
        String invalid = KeyPairCheck.outOfValidity(leaf, clock.instant());
        return invalid == null ? null : chain.describe() + ": " + invalid;
    }
}
