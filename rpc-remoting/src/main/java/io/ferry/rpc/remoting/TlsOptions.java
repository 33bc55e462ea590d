package io.ferry.rpc.remoting;

import io.ferry.rpc.option.Option;
import io.ferry.rpc.option.OptionValues;

import java.time.Duration;

import static io.ferry.rpc.remoting.TransportOptions.CLIENT_AUTH;
import static io.ferry.rpc.remoting.TransportOptions.CLIENT_KEY_CERT_CHAIN_PATH;
import static io.ferry.rpc.remoting.TransportOptions.CLIENT_PRIVATE_KEY_PATH;
import static io.ferry.rpc.remoting.TransportOptions.CLIENT_TRUST_CERT_COLLECTION_PATH;
import static io.ferry.rpc.remoting.TransportOptions.INSECURE_SKIP_HOST_VERIFICATION;
import static io.ferry.rpc.remoting.TransportOptions.SERVER_KEY_CERT_CHAIN_PATH;
import static io.ferry.rpc.remoting.TransportOptions.SERVER_PRIVATE_KEY_PATH;
import static io.ferry.rpc.remoting.TransportOptions.SERVER_TRUST_CERT_COLLECTION_PATH;
import static io.ferry.rpc.remoting.TransportOptions.SSL_HANDSHAKE_TIMEOUT;
import static io.ferry.rpc.remoting.TransportOptions.SSL_PROVIDER;
import static io.ferry.rpc.remoting.TransportOptions.SSL_RELOAD_INTERVAL;

/**
 * TLS for a server ({@link ServerOptions.Builder#tls}) or a client's connections ({@link ClientOptions.Builder#tls}):
 * PEM files for the certificate chain, the private key and the trust collection of each side, as Dubbo's
 * {@code SslConfig} names them. TLS 1.3 and 1.2 only, no renegotiation. A consumer verifies that the provider's
 * certificate chains to its trust collection (the JVM's CAs when none is given) and names the host or IP address it
 * connected to; a provider with a trust collection requires consumers' certificates (mutual TLS) unless
 * {@link ClientAuth} says otherwise. The files are read again every {@code sslReloadInterval}: a changed certificate
 * or key is used for new handshakes, and a broken one is refused with a log line while the old one stays in use.
 * Immutable; the key passwords never appear in {@link #toString()}.
 */
public final class TlsOptions {
    private final OptionValues values;

    private TlsOptions(OptionValues values) {
        this.values = values;
    }

    public static Builder builder() {
        return new Builder(OptionValues.none());
    }

    /** Every option set here. */
    public OptionValues values() {
        return values;
    }

    public <T> T get(Option<T> option) {
        return values.get(TransportOptions.accepted(option, TransportOptions.TLS, "a TLS"));
    }

    /** Whether a provider asks consumers for certificates: as set, else REQUIRE exactly when it has a trust file. */
    public ClientAuth clientAuth() {
        ClientAuth set = values.get(CLIENT_AUTH);
        if (set != null) {
            return set;
        }
        return values.isSet(SERVER_TRUST_CERT_COLLECTION_PATH) ? ClientAuth.REQUIRE : ClientAuth.NONE;
    }

    public SslProvider provider() {
        return values.get(SSL_PROVIDER, SslProvider.JDK);
    }

    public Duration handshakeTimeout() {
        return values.get(SSL_HANDSHAKE_TIMEOUT, Duration.ofSeconds(10));
    }

    /** TLS handshakes a provider runs at once (see {@link TransportOptions#SSL_MAX_HANDSHAKES}). */
    public int maxHandshakes() {
        return values.get(TransportOptions.SSL_MAX_HANDSHAKES, 256);
    }

    public Duration reloadInterval() {
        return values.get(SSL_RELOAD_INTERVAL, Duration.ofSeconds(2));
    }

    public boolean verifiesHost() {
        return !values.get(INSECURE_SKIP_HOST_VERIFICATION, false);
    }

    public Builder toBuilder() {
        return new Builder(values);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof TlsOptions other && values.equals(other.values);
    }

    @Override
    public int hashCode() {
        return values.hashCode();
    }

    /** The files and settings, passwords masked. */
    @Override
    public String toString() {
        return "TlsOptions" + values;
    }

    public static final class Builder {
        private OptionValues values;

        private Builder(OptionValues values) {
            this.values = values;
        }

        /**
         * Sets one of {@link TransportOptions#TLS}, checked by the option.
         *
         * @throws IllegalArgumentException naming the option, the value and its range, or the options there are
         */
        public <T> Builder option(Option<T> option, T value) {
            values = values.with(TransportOptions.accepted(option, TransportOptions.TLS, "a TLS"), value);
            return this;
        }

        /** The provider's certificate chain and private key (PKCS#8), PEM files. */
        public Builder serverKeyCertChain(String certificateChainPath, String privateKeyPath) {
            return option(SERVER_KEY_CERT_CHAIN_PATH, certificateChainPath)
                    .option(SERVER_PRIVATE_KEY_PATH, privateKeyPath);
        }

        /** CAs consumers' certificates must chain to; with it, consumers must present one (see {@link ClientAuth}). */
        public Builder serverTrustCertCollection(String path) {
            return option(SERVER_TRUST_CERT_COLLECTION_PATH, path);
        }

        public Builder clientAuth(ClientAuth clientAuth) {
            return option(CLIENT_AUTH, clientAuth);
        }

        /** The consumer's certificate chain and private key (PKCS#8), PEM files, for providers that ask. */
        public Builder clientKeyCertChain(String certificateChainPath, String privateKeyPath) {
            return option(CLIENT_KEY_CERT_CHAIN_PATH, certificateChainPath)
                    .option(CLIENT_PRIVATE_KEY_PATH, privateKeyPath);
        }

        /** CAs providers' certificates must chain to; without it, the JVM's. */
        public Builder clientTrustCertCollection(String path) {
            return option(CLIENT_TRUST_CERT_COLLECTION_PATH, path);
        }

        public Builder provider(SslProvider provider) {
            return option(SSL_PROVIDER, provider);
        }

        public Builder handshakeTimeout(Duration timeout) {
            return option(SSL_HANDSHAKE_TIMEOUT, timeout);
        }

        public Builder maxHandshakes(int max) {
            return option(TransportOptions.SSL_MAX_HANDSHAKES, max);
        }

        public Builder reloadInterval(Duration interval) {
            return option(SSL_RELOAD_INTERVAL, interval);
        }

        /**
         * INSECURE: accept a provider's certificate whatever host it names (it must still chain to a trusted CA).
         * Anyone holding any certificate of that CA can then stand in for any provider. Warned about at start.
         */
        public Builder insecureSkipHostVerification() {
            return option(INSECURE_SKIP_HOST_VERIFICATION, true);
        }

        public TlsOptions build() {
            return new TlsOptions(values);
        }
    }
}
