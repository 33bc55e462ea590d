package io.ferry.rpc.config;

import io.ferry.rpc.config.option.Settings;
import io.ferry.rpc.option.Option;
import io.ferry.rpc.option.Scope;
import io.ferry.rpc.remoting.ClientAuth;
import io.ferry.rpc.remoting.SslProvider;
import io.ferry.rpc.remoting.TlsOptions;
import io.ferry.rpc.remoting.TransportOptions;

import java.time.Duration;

/**
 * TLS certificates, keys and trust for this process, as Dubbo's {@code SslConfig} (the {@code <ssl>} element,
 * {@code ferry.ssl.*}): the {@code server-*} files serve the protocol when its {@code ssl-enabled} is true, the
 * {@code client-*} files serve references that connect with TLS (those whose {@code ssl-enabled} is true, and every
 * provider registered with {@code ssl-enabled=true}). Unlike Dubbo, there is no fallback to plain text: a reference
 * that is to use TLS and cannot completes no call. The options are the option table's at the ssl scope; key
 * passwords never appear in {@link #toString()}.
 *
 * <pre>{@code
 * Ferry.builder()
 *     .ssl(SslConfig.builder().serverKeyCertChain("/etc/ferry/provider.pem", "/etc/ferry/provider-key.pem")
 *             .serverTrustCertCollection("/etc/ferry/ca.pem")       // consumers must present a certificate
 *             .build())
 *     .protocol(ProtocolConfig.builder().port(20880).sslEnabled(true).build())
 * }</pre>
 */
public final class SslConfig {
    private final Settings settings;
    private final TlsOptions tls;

    private SslConfig(Settings settings) {
        this.settings = settings;
        TlsOptions.Builder b = TlsOptions.builder();
        for (Option<?> option : settings.options()) {
            Settings.Setting setting = settings.setting(option);
            try {
                set(b, option, setting.value());
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException((setting.where().isEmpty() ? "" : setting.where() + ": ")
                        + e.getMessage(), e);
            }
        }
        this.tls = b.build();
    }

    @SuppressWarnings("unchecked")
    private static <T> void set(TlsOptions.Builder b, Option<T> option, Object value) {
        b.option(option, (T) value);
    }

    /** No files: TLS, when a reference uses it, trusts the JVM's CAs and presents no certificate. */
    public static SslConfig defaults() {
        return builder().build();
    }

    public static Builder builder() {
        return new Builder();
    }

    /** The options set on this config (not the defaults), each with where it was set. */
    public Settings settings() {
        return settings.copy();
    }

    /** This config with {@code merged} in place of its settings. */
    SslConfig withSettings(Settings merged) {
        return new SslConfig(merged);
    }

    /** The transport's TLS options these settings make. */
    public TlsOptions tlsOptions() {
        return tls;
    }

    /** The options set, with where; key passwords masked. */
    @Override
    public String toString() {
        return "SslConfig" + settings;
    }

    public static final class Builder {
        private final Settings settings = new Settings();

        /**
         * Sets any option of the ssl scope; the typed setters below are shorthands for it.
         *
         * @throws IllegalArgumentException naming the option when it has no ssl scope or the value is out of range
         */
        public <V> Builder set(Option<V> option, V value) {
            return set(option, value, "");
        }

        /** As {@link #set(Option, Object)}, remembering where the value came from (a file and line). */
        public <V> Builder set(Option<V> option, V value, String where) {
            settings.checked(Scope.SSL, option, value, where);
            return this;
        }

        /** The provider's certificate chain and its PKCS#8 private key, PEM files. */
        public Builder serverKeyCertChain(String certificateChainPath, String privateKeyPath) {
            return set(TransportOptions.SERVER_KEY_CERT_CHAIN_PATH, certificateChainPath)
                    .set(TransportOptions.SERVER_PRIVATE_KEY_PATH, privateKeyPath);
        }

        /** CAs a consumer's certificate must chain to; consumers must then present one (mutual TLS). */
        public Builder serverTrustCertCollection(String path) {
            return set(TransportOptions.SERVER_TRUST_CERT_COLLECTION_PATH, path);
        }

        public Builder clientAuth(ClientAuth clientAuth) {
            return set(TransportOptions.CLIENT_AUTH, clientAuth);
        }

        /** The consumer's certificate chain and its PKCS#8 private key, PEM files, for providers that ask. */
        public Builder clientKeyCertChain(String certificateChainPath, String privateKeyPath) {
            return set(TransportOptions.CLIENT_KEY_CERT_CHAIN_PATH, certificateChainPath)
                    .set(TransportOptions.CLIENT_PRIVATE_KEY_PATH, privateKeyPath);
        }

        /** CAs a provider's certificate must chain to; without it, the JVM's. */
        public Builder clientTrustCertCollection(String path) {
            return set(TransportOptions.CLIENT_TRUST_CERT_COLLECTION_PATH, path);
        }

        public Builder provider(SslProvider provider) {
            return set(TransportOptions.SSL_PROVIDER, provider);
        }

        public Builder handshakeTimeout(Duration timeout) {
            return set(TransportOptions.SSL_HANDSHAKE_TIMEOUT, timeout);
        }

        public Builder reloadInterval(Duration interval) {
            return set(TransportOptions.SSL_RELOAD_INTERVAL, interval);
        }

        /**
         * INSECURE: consumers accept a provider certificate whatever host it names, as long as a trusted CA issued
         * it; anyone with any certificate of that CA can then pose as any provider. Warned about at start.
         */
        public Builder insecureSkipHostVerification() {
            return set(TransportOptions.INSECURE_SKIP_HOST_VERIFICATION, true);
        }

        public SslConfig build() {
            return new SslConfig(settings.copy());
        }
    }
}
