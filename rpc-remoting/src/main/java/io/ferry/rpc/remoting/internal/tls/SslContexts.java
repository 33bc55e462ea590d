package io.ferry.rpc.remoting.internal.tls;

import io.ferry.rpc.option.Option;
import io.ferry.rpc.remoting.SslProvider;
import io.ferry.rpc.remoting.TlsOptions;
import io.netty.handler.ssl.ClientAuth;
import io.netty.handler.ssl.OpenSsl;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;

import javax.net.ssl.SSLException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static io.ferry.rpc.remoting.TransportOptions.CLIENT_AUTH;
import static io.ferry.rpc.remoting.TransportOptions.CLIENT_KEY_CERT_CHAIN_PATH;
import static io.ferry.rpc.remoting.TransportOptions.CLIENT_KEY_PASSWORD;
import static io.ferry.rpc.remoting.TransportOptions.CLIENT_PRIVATE_KEY_PATH;
import static io.ferry.rpc.remoting.TransportOptions.CLIENT_TRUST_CERT_COLLECTION_PATH;
import static io.ferry.rpc.remoting.TransportOptions.SERVER_KEY_CERT_CHAIN_PATH;
import static io.ferry.rpc.remoting.TransportOptions.SERVER_KEY_PASSWORD;
import static io.ferry.rpc.remoting.TransportOptions.SERVER_PRIVATE_KEY_PATH;
import static io.ferry.rpc.remoting.TransportOptions.SERVER_TRUST_CERT_COLLECTION_PATH;
import static io.ferry.rpc.remoting.TransportOptions.SSL_PROVIDER;

/**
 * Builds Netty {@link SslContext}s from {@link TlsOptions}: TLS 1.3 and 1.2 only, the JDK's or OpenSSL's engine, the
 * provider's side asking for client certificates as {@link TlsOptions#clientAuth()} says, the consumer's side
 * verifying the host it connects to unless told not to.
 */
final class SslContexts {
    static final String[] PROTOCOLS = {"TLSv1.3", "TLSv1.2"};
    static final List<Option<String>> SERVER_FILES = List.of(SERVER_KEY_CERT_CHAIN_PATH, SERVER_PRIVATE_KEY_PATH,
            SERVER_TRUST_CERT_COLLECTION_PATH);
    static final List<Option<String>> CLIENT_FILES = List.of(CLIENT_KEY_CERT_CHAIN_PATH, CLIENT_PRIVATE_KEY_PATH,
            CLIENT_TRUST_CERT_COLLECTION_PATH);

    private SslContexts() {
    }

    /**
     * The provider's context.
     *
     * @throws IllegalArgumentException naming the option and file at fault
     */
    static SslContext server(TlsOptions options, TlsMaterial material) {
        TlsMaterial.File chain = material.file(SERVER_KEY_CERT_CHAIN_PATH);
        TlsMaterial.File key = material.file(SERVER_PRIVATE_KEY_PATH);
        if (chain == null || key == null) {
            throw new IllegalArgumentException(SERVER_KEY_CERT_CHAIN_PATH.fileName() + ", "
                    + SERVER_PRIVATE_KEY_PATH.fileName() + ": not set (expected: both, for a provider with TLS)");
        }
        RenegotiationGuard.install(options.provider());
        SslContextBuilder builder;
        try (InputStream c = chain.open(); InputStream k = key.open()) {
            builder = SslContextBuilder.forServer(c, k, options.values().get(SERVER_KEY_PASSWORD));
        } catch (IllegalArgumentException | java.io.IOException e) {
            throw unreadable(chain.describe() + " / " + key.describe() + passwordHint(key, SERVER_KEY_PASSWORD,
                    options), e);
        }
        TlsMaterial.File trust = material.file(SERVER_TRUST_CERT_COLLECTION_PATH);
        if (trust != null) {
            trustFrom(builder, trust);
        } else if (options.clientAuth() != io.ferry.rpc.remoting.ClientAuth.NONE) {
            // the JVM's CAs would vouch for any certificate a public CA issued: none is a caller's identity
            throw new IllegalArgumentException(CLIENT_AUTH.fileName() + ": " + options.clientAuth().name()
                    .toLowerCase(java.util.Locale.ROOT) + " (expected: " + SERVER_TRUST_CERT_COLLECTION_PATH.fileName()
                    + " too, the CAs whose certificates identify consumers)");
        }
        builder.clientAuth(switch (options.clientAuth()) {
            case NONE -> ClientAuth.NONE;
            case OPTIONAL -> ClientAuth.OPTIONAL;
            case REQUIRE -> ClientAuth.REQUIRE;
        });
        return build(builder, options, chain.describe() + " / " + key.describe());
    }

    /**
     * The consumer's context.
     *
     * @throws IllegalArgumentException naming the option and file at fault
     */
    static SslContext client(TlsOptions options, TlsMaterial material) {
        SslContextBuilder builder = SslContextBuilder.forClient()
                .endpointIdentificationAlgorithm(options.verifiesHost() ? "HTTPS" : null);
        TlsMaterial.File chain = material.file(CLIENT_KEY_CERT_CHAIN_PATH);
        TlsMaterial.File key = material.file(CLIENT_PRIVATE_KEY_PATH);
        if ((chain == null) != (key == null)) {
            throw new IllegalArgumentException(CLIENT_KEY_CERT_CHAIN_PATH.fileName() + ", "
                    + CLIENT_PRIVATE_KEY_PATH.fileName() + ": only one is set (expected: both, or neither)");
        }
        if (chain != null) {
            try (InputStream c = chain.open(); InputStream k = key.open()) {
                builder.keyManager(c, k, options.values().get(CLIENT_KEY_PASSWORD));
            } catch (IllegalArgumentException | java.io.IOException e) {
                throw unreadable(chain.describe() + " / " + key.describe() + passwordHint(key, CLIENT_KEY_PASSWORD,
                        options), e);
            }
        }
        TlsMaterial.File trust = material.file(CLIENT_TRUST_CERT_COLLECTION_PATH);
        if (trust != null) {
            trustFrom(builder, trust);
        }
        return build(builder, options, chain == null ? "the client's trust" : chain.describe());
    }

    private static void trustFrom(SslContextBuilder builder, TlsMaterial.File trust) {
        try (InputStream t = trust.open()) {
            builder.trustManager(t);
        } catch (IllegalArgumentException | java.io.IOException e) {
            throw unreadable(trust.describe(), e);
        }
    }

    private static SslContext build(SslContextBuilder builder, TlsOptions options, String what) {
        builder.protocols(PROTOCOLS).sslProvider(engine(options.provider()));
        try {
            return builder.build();
        } catch (SSLException | IllegalArgumentException e) {
            throw unreadable(what, e);
        }
    }

    private static io.netty.handler.ssl.SslProvider engine(SslProvider provider) {
        if (provider == SslProvider.JDK) {
            return io.netty.handler.ssl.SslProvider.JDK;
        }
        if (!OpenSsl.isAvailable()) {
            Throwable why = OpenSsl.unavailabilityCause();
            throw new IllegalArgumentException(SSL_PROVIDER.fileName() + ": openssl (expected: jdk, or "
                    + "netty-tcnative-boringssl-static for this platform on the class path; "
                    + (why == null ? "it is not" : why.getMessage()) + ")", why);
        }
        return io.netty.handler.ssl.SslProvider.OPENSSL;
    }

    /**
     * For an encrypted key, what else to check: its password option, by name (the password itself is never shown).
     * A wrong password reads as padding or key-spec noise from the JDK, which names neither.
     */
    private static String passwordHint(TlsMaterial.File key, Option<String> password, TlsOptions options) {
        if (!new String(key.bytes(), StandardCharsets.US_ASCII).contains("ENCRYPTED PRIVATE KEY")) {
            return "";
        }
        return options.values().get(password) == null ? " (an encrypted key, and " + password.fileName()
                + " is not set)" : " (an encrypted key: is " + password.fileName() + " its password?)";
    }

    private static IllegalArgumentException unreadable(String what, Exception e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return new IllegalArgumentException(what + " (expected: a PEM certificate chain and its PKCS#8 private key; "
                + root.getMessage() + ")", e);
    }
}
