package io.ferry.rpc.config;

import io.ferry.rpc.Filter;
import io.ferry.rpc.option.Option;
import io.ferry.rpc.config.option.Options;
import io.ferry.rpc.option.Scope;
import io.ferry.rpc.config.option.Settings;
import io.ferry.rpc.remoting.Serialization;
import io.ferry.rpc.remoting.Dispatcher;
import io.ferry.rpc.remoting.ServerOptions;
import io.ferry.rpc.remoting.SocketOptions;
import io.ferry.rpc.remoting.ThreadPoolKind;
import io.ferry.rpc.spi.Validate;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * How this process serves its exported services: the Dubbo protocol on one port. The options, defaults and ranges
 * are the option table's at the protocol scope ({@link Options}, the README's reference); the builder keeps what
 * was set, so that {@code -D} and a {@code ferry.properties} on the class path can take their place.
 */
public final class ProtocolConfig {
    private final Settings settings;
    private final ServerOptions server;
    private final String advertisedHost;
    private final List<Filter> filters;

    private ProtocolConfig(Settings settings, String advertisedHost, List<Filter> filters) {
        this(settings, advertisedHost, filters, TransportSettings.server(settings));
    }

    private ProtocolConfig(Settings settings, String advertisedHost, List<Filter> filters, ServerOptions server) {
        this.settings = settings;
        this.server = server;
        this.filters = List.copyOf(filters);
        this.advertisedHost = advertisedHost;
        ServiceConfig.checkAccessLog(settings.setting(Options.ACCESS_LOG));
    }

    public static ProtocolConfig defaults() {
        return builder().build();
    }

    public static Builder builder() {
        return new Builder();
    }

    /** The options set on this config (not the defaults), each with where it was set. */
    public Settings settings() {
        return settings.copy();
    }

    /** This config with {@code merged} in place of its settings: the same filters and advertised host. */
    ProtocolConfig withSettings(Settings merged) {
        return new ProtocolConfig(merged, advertisedHost, filters);
    }

    /** Whether the port speaks TLS ({@code ssl-enabled}); its certificates are the {@link SslConfig}'s. */
    public boolean sslEnabled() {
        Boolean set = settings.get(Options.SSL_ENABLED);
        return set != null && set;
    }

    /**
     * This config serving TLS with {@code ssl}'s server files, if {@link #sslEnabled()}; else itself.
     *
     * @throws IllegalArgumentException when TLS is on and {@code ssl} has no server certificate and key
     */
    ProtocolConfig withTls(SslConfig ssl) {
        if (!sslEnabled()) {
            return this;
        }
        if (ssl.tlsOptions().values().get(Options.SERVER_KEY_CERT_CHAIN_PATH) == null
                || ssl.tlsOptions().values().get(Options.SERVER_PRIVATE_KEY_PATH) == null) {
            Settings.Setting on = settings.setting(Options.SSL_ENABLED);
            throw new IllegalArgumentException((on.where().isEmpty() ? "" : on.where() + ": ") + "ssl-enabled: true "
                    + "on the protocol (expected: server-key-cert-chain-path and server-private-key-path in the ssl "
                    + "config: <ssl>, ferry.ssl.*, or Ferry.builder().ssl(...))");
        }
        return new ProtocolConfig(settings, advertisedHost, filters,
                server.toBuilder().tls(ssl.tlsOptions()).build());
    }

    public ServerOptions serverOptions() {
        return server;
    }

    /** The address registered for consumers, or null to derive it (the bound host, else this host's own). */
    public String advertisedHost() {
        return advertisedHost;
    }

    /** Provider filters around every exported service's calls, in order, before each service's own. */
    public List<Filter> filters() {
        return filters;
    }

    /** The options set, with where, the advertised host and the filters. */
    @Override
    public String toString() {
        return "ProtocolConfig" + settings + (advertisedHost == null ? "" : " advertisedHost=" + advertisedHost)
                + " filters=" + names(filters);
    }

    /** Filters by their class names (a filter's own toString may say more than a config line should). */
    static String names(java.util.List<?> filters) {
        return filters.stream().map(f -> f.getClass().getSimpleName()).toList().toString();
    }

    public static final class Builder {
        private final Settings settings = new Settings();
        private final List<Filter> filters = new ArrayList<>();
        private String advertisedHost;

        /**
         * Sets any option of the protocol scope; the typed setters below are shorthands for it.
         *
         * @throws IllegalArgumentException naming the option when it has no protocol scope or the value is out of
         *                                  its range
         */
        public <V> Builder set(Option<V> option, V value) {
            return set(option, value, "");
        }

        /** As {@link #set(Option, Object)}, remembering where the value came from (a file and line). */
        public <V> Builder set(Option<V> option, V value, String where) {
            settings.checked(Scope.PROTOCOL, option, value, where);
            return this;
        }

        /** Adds a provider filter around every exported service's calls. */
        public Builder filter(Filter filter) {
            filters.add(Validate.notNull("filter", filter));
            return this;
        }

        /** The address consumers should connect to, when it differs from the bound one (NAT, containers). */
        public Builder advertisedHost(String host) {
            this.advertisedHost = host == null || host.isBlank() ? null : host;
            return this;
        }

        /** The address to bind; default every local address. */
        public Builder host(String host) {
            return set(Options.HOST, host);
        }

        /** The body encoding: {@link Serialization#HESSIAN2}, the only one (Dubbo's {@code serialization}). */
        public Builder serialization(Serialization serialization) {
            return set(Options.SERIALIZATION, serialization);
        }

        public Builder port(int port) {
            return set(Options.PORT, port);
        }

        /**
         * TLS only on this port (Dubbo's {@code ssl-enabled}), with the {@link SslConfig}'s server certificate;
         * registered as {@code ssl-enabled=true}, so that consumers connect with TLS.
         */
        public Builder sslEnabled(boolean enabled) {
            return set(Options.SSL_ENABLED, enabled);
        }

        public Builder ioThreads(int ioThreads) {
            return set(Options.IO_THREADS, ioThreads);
        }

        /** The business pool's size (its largest, for growing kinds). */
        public Builder threads(int threads) {
            return set(Options.THREADS, threads);
        }

        public Builder threadPool(ThreadPoolKind kind) {
            return set(Options.THREAD_POOL, kind);
        }

        public Builder coreThreads(int coreThreads) {
            return set(Options.CORE_THREADS, coreThreads);
        }

        public Builder alive(Duration alive) {
            return set(Options.ALIVE, alive);
        }

        public Builder dispatcher(Dispatcher dispatcher) {
            return set(Options.DISPATCHER, dispatcher);
        }

        public Builder queues(int queues) {
            return set(Options.QUEUES, queues);
        }

        public Builder backlog(int backlog) {
            return set(Options.BACKLOG, backlog);
        }

        public Builder payloadBytes(int payloadBytes) {
            return set(Options.PAYLOAD, payloadBytes);
        }

        /** Requests are still served for {@code grace} after the readonly event; the wait ends by {@code timeout}. */
        public Builder shutdown(Duration grace, Duration timeout) {
            set(Options.SHUTDOWN_GRACE, grace);
            return set(Options.SHUTDOWN_TIMEOUT, timeout);
        }

        public Builder heartbeat(Duration heartbeat) {
            return set(Options.HEARTBEAT, heartbeat);
        }

        public Builder accepts(int accepts) {
            return set(Options.ACCEPTS, accepts);
        }

        /** Every socket option at once ({@code tcpNoDelay}, buffers, water marks). */
        public Builder socket(SocketOptions socket) {
            TransportSettings.socketInto(settings, Validate.notNull("socket", socket), "");
            return this;
        }

        /**
         * Dubbo's access log for the calls of every service exported on this protocol that does not set its own:
         * {@code "true"} writes one line a call to the slf4j logger {@code ferry.accesslog}, any other value but
         * {@code "false"} is a file the lines are appended to. Default: none.
         */
        public Builder accessLog(String accessLog) {
            return set(Options.ACCESS_LOG, accessLog);
        }

        /** Whether access-log lines show argument values (escaped and cut short); default false. */
        public Builder accessLogArguments(boolean shown) {
            return set(Options.ACCESS_LOG_ARGUMENTS, shown);
        }

        public Builder frameTimeout(Duration timeout) {
            return set(Options.FRAME_TIMEOUT, timeout);
        }

        /** What frames arriving in pieces may hold between them (default a quarter of direct memory). */
        public Builder partialFrameBudgetBytes(long bytes) {
            return set(Options.PARTIAL_FRAME_BUDGET, bytes);
        }

        public ProtocolConfig build() {
            return new ProtocolConfig(settings.copy(), advertisedHost, filters);
        }
    }
}
