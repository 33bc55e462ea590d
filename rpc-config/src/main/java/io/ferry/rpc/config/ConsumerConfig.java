package io.ferry.rpc.config;

import io.ferry.rpc.Filter;
import io.ferry.rpc.option.Option;
import io.ferry.rpc.config.option.Options;
import io.ferry.rpc.option.Scope;
import io.ferry.rpc.config.option.Settings;
import io.ferry.rpc.remoting.Serialization;
import io.ferry.rpc.remoting.ClientOptions;
import io.ferry.rpc.remoting.TlsOptions;
import io.ferry.rpc.remoting.SocketOptions;
import io.ferry.rpc.spi.Validate;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Defaults for every reference of this process, each overridable per reference and per method. The options, their
 * defaults and ranges are those of the option table ({@link Options}, the README's reference) at the consumer scope;
 * a builder keeps what was set, so that a {@code -D} property or a {@code ferry.properties} on the class path can
 * take its place by the precedence rules. Objects that files cannot describe are set here in code: filters,
 * {@link OutlierEjection} ({@link OutlierEjection#defaults()}) and {@link RetryBudget} ({@link RetryBudget#defaults()}:
 * 10 retries a second plus 10 % of calls).
 */
public final class ConsumerConfig {
    private final Settings settings;
    private final List<Filter> filters;
    private final OutlierEjection outlierEjection;
    private final RetryBudget retryBudget;
    private final ClientOptions client;
    private final TlsOptions tls;

    private ConsumerConfig(Settings settings, List<Filter> filters, OutlierEjection outlierEjection,
                           RetryBudget retryBudget) {
        this(settings, filters, outlierEjection, retryBudget, SslConfig.defaults().tlsOptions());
    }

    private ConsumerConfig(Settings settings, List<Filter> filters, OutlierEjection outlierEjection,
                           RetryBudget retryBudget, TlsOptions tls) {
        this.tls = tls;
        this.settings = settings;
        this.filters = List.copyOf(filters);
        this.outlierEjection = outlierEjection;
        this.retryBudget = retryBudget;
        this.client = TransportSettings.client(settings, ClientOptions.defaults()); // checks options that clash
    }

    public static ConsumerConfig defaults() {
        return builder().build();
    }

    public static Builder builder() {
        return new Builder();
    }

    /** The options set on this config (not the defaults), each with where it was set. */
    public Settings settings() {
        return settings.copy();
    }

    /** This config with {@code merged} in place of its settings: the same filters and objects. */
    ConsumerConfig withSettings(Settings merged) {
        return new ConsumerConfig(merged, filters, outlierEjection, retryBudget, tls);
    }

    /** This config with {@code ssl}'s client files for the connections that use TLS. */
    ConsumerConfig withTls(SslConfig ssl) {
        return new ConsumerConfig(settings, filters, outlierEjection, retryBudget, ssl.tlsOptions());
    }

    /**
     * The TLS of references' connections that use it: those of a reference whose {@code ssl-enabled} is true, and
     * those to a provider registered with {@code ssl-enabled=true}.
     */
    public TlsOptions tlsOptions() {
        return tls;
    }

    private <T> T value(Option<T> option) {
        T set = settings.get(option);
        return set != null ? set : option.defaultValue();
    }

    public Duration timeout() {
        return value(Options.TIMEOUT);
    }

    /** The client IO thread count this config asks for, or null to leave the process's setting alone. */
    public Integer ioThreads() {
        return settings.get(Options.IO_THREADS);
    }

    public ClientOptions clientOptions() {
        return client;
    }

    public Duration connectSpread() {
        return value(Options.CONNECT_SPREAD);
    }

    public int retries() {
        return value(Options.RETRIES);
    }

    public boolean check() {
        return value(Options.CHECK);
    }

    /** Whether an empty provider list leaves the providers with live connections in place (default true). */
    public boolean emptyProtection() {
        return value(Options.EMPTY_PROTECTION);
    }

    /** How long a provider the registry stops listing keeps its calls while its connection lives (default 60 s). */
    public Duration unlistedGrace() {
        return value(Options.UNLISTED_GRACE);
    }

    public List<Filter> filters() {
        return filters;
    }

    /** The load balancer's name ({@code adaptive} unless set). */
    public String loadBalance() {
        return value(Options.LOAD_BALANCE);
    }

    /** The cluster's name ({@code failover} unless set). */
    public String cluster() {
        return value(Options.CLUSTER);
    }

    /** The named filters every reference runs first (see {@link Builder#filter(String)}); null when none set. */
    public String filterNames() {
        return settings.get(Options.FILTER);
    }

    public int forks() {
        return value(Options.FORKS);
    }

    public int actives() {
        return value(Options.ACTIVES);
    }

    public OutlierEjection outlierEjection() {
        return outlierEjection;
    }

    public RetryBudget retryBudget() {
        return retryBudget;
    }

    /** The options set, with where, and the pieces that are not options (filters, ejection, retry budget). */
    @Override
    public String toString() {
        return "ConsumerConfig" + settings + " filters=" + ProtocolConfig.names(filters)
                + " outlierEjection=" + outlierEjection + " retryBudget=" + retryBudget;
    }

    public static final class Builder {
        private final Settings settings = new Settings();
        private final List<Filter> filters = new ArrayList<>();
        private OutlierEjection outlierEjection = OutlierEjection.defaults();
        private RetryBudget retryBudget = RetryBudget.defaults();

        /**
         * Sets any option of the consumer scope; the typed setters below are shorthands for it.
         *
         * @throws IllegalArgumentException naming the option when it has no consumer scope or the value is out of
         *                                  its range
         */
        public <V> Builder set(Option<V> option, V value) {
            return set(option, value, "");
        }

        /** As {@link #set(Option, Object)}, remembering where the value came from (a file and line). */
        public <V> Builder set(Option<V> option, V value, String where) {
            settings.checked(Scope.CONSUMER, option, value, where);
            return this;
        }

        /**
         * True (default): creating a reference waits until one of its providers is ready, and fails after
         * {@code connectTimeout} with the providers tried and why; false: it returns at once and the first calls
         * wait for (or fail on) the connection. Dubbo's {@code check}.
         */
        public Builder check(boolean check) {
            return set(Options.CHECK, check);
        }

        /**
         * True: calls of methods that do not return a CompletableFuture return at once (null, 0 or false), and
         * {@code RpcContext.current().future()} is their outcome; Dubbo's {@code async}. Default false.
         */
        public Builder async(boolean async) {
            return set(Options.ASYNC, async);
        }

        /** How a provider is chosen for each attempt; default {@link LoadBalance#ADAPTIVE}. */
        public Builder loadBalance(LoadBalance loadBalance) {
            return loadBalance(Validate.notNull("loadBalance", loadBalance).dubboName());
        }

        /** A load balancer by name: Ferry's own, or one a jar registers as a {@code LoadBalancerProvider}. */
        public Builder loadBalance(String name) {
            return set(Options.LOAD_BALANCE, name);
        }

        /** What a failed call means; default {@link ClusterMode#FAILOVER}. */
        public Builder cluster(ClusterMode cluster) {
            return cluster(Validate.notNull("cluster", cluster).dubboName());
        }

        /** A cluster by name: Ferry's own, or one a jar registers as a {@code ClusterProvider}. */
        public Builder cluster(String name) {
            return set(Options.CLUSTER, name);
        }

        /**
         * Filters by name, for every reference, in order, as Dubbo's {@code filter}: each a {@code FilterProvider}
         * on the class path; {@code -name} leaves out one that runs by default, {@code -default} all of them.
         * Called again, it adds to the list.
         */
        public Builder filter(String names) {
            String before = settings.get(Options.FILTER);
            return set(Options.FILTER, before == null ? names : before + "," + names);
        }

        /** Providers a {@link ClusterMode#FORKING} call goes to at once; default 2. */
        /** The body encoding: {@link Serialization#HESSIAN2}, the only one (Dubbo's {@code serialization}). */
        public Builder serialization(Serialization serialization) {
            return set(Options.SERIALIZATION, serialization);
        }

        public Builder forks(int forks) {
            return set(Options.FORKS, forks);
        }

        /** Most calls in flight per method of a reference; 0 (default) for no limit. */
        public Builder actives(int actives) {
            return set(Options.ACTIVES, actives);
        }

        /**
         * Dubbo's {@code mock}: what answers a call that failed with an {@code RpcException} (no provider, timeout,
         * connection lost, refused, ...), never one that failed with the service's own exception: {@code return
         * null}, {@code return empty}, {@code return <value>}, {@code throw}, {@code throw com.acme.SomeException},
         * {@code true} (the interface's {@code XxxMock} class) or a class name; {@code force:} in front answers
         * every call without calling a provider. For every reference; checked when each is created.
         */
        public Builder mock(String mock) {
            return set(Options.MOCK, mock);
        }

        /**
         * Dubbo's {@code stub}: {@code true} (the interface's {@code XxxStub} class) or a class name, implementing
         * the interface, with a public constructor taking it: each reference handed out is that class, made around
         * the proxy. For every reference; checked when each is created.
         */
        public Builder stub(String stub) {
            return set(Options.STUB, stub);
        }

        public Builder outlierEjection(OutlierEjection outlierEjection) {
            this.outlierEjection = Validate.notNull("outlierEjection", outlierEjection);
            return this;
        }

        public Builder retryBudget(RetryBudget retryBudget) {
            this.retryBudget = Validate.notNull("retryBudget", retryBudget);
            return this;
        }

        /** Other providers a call that provably did not run may move to; default 2, 0 for none. */
        public Builder retries(int retries) {
            return set(Options.RETRIES, retries);
        }

        /** Adds a filter around every call of every reference (before the reference's own filters). */
        public Builder filter(Filter filter) {
            filters.add(Validate.notNull("filter", filter));
            return this;
        }

        public Builder heartbeat(Duration heartbeat) {
            return set(Options.HEARTBEAT, heartbeat);
        }

        /** The first reconnect delay, doubling with full jitter up to {@code max}. */
        public Builder reconnectBackoff(Duration min, Duration max) {
            set(Options.RECONNECT_BACKOFF_MIN, min);
            set(Options.RECONNECT_BACKOFF_MAX, max);
            if (min.compareTo(max) > 0) {
                throw new IllegalArgumentException("reconnectBackoff: " + min.toMillis() + "ms > " + max.toMillis()
                        + "ms (expected: min <= max)");
            }
            return this;
        }

        public Builder connectSpread(Duration spread) {
            return set(Options.CONNECT_SPREAD, spread);
        }

        /**
         * True (the default): when the registry suddenly lists no provider, calls keep going to those whose
         * connections are live, each until its connection fails or it says it is shutting down, or until the
         * registry lists a provider again; false: an empty list is taken as it is, as Dubbo's default does.
         */
        public Builder emptyProtection(boolean protect) {
            return set(Options.EMPTY_PROTECTION, protect);
        }

        /**
         * 60 s by default: a provider the registry stops listing while others stay listed, but whose connection
         * lives (its ZooKeeper session expired), keeps its calls this long, until it is listed again, says it is
         * shutting down or its connection fails; zero takes such a list as it is, as Dubbo does.
         */
        public Builder unlistedGrace(Duration grace) {
            return set(Options.UNLISTED_GRACE, grace);
        }

        public Builder timeout(Duration timeout) {
            return set(Options.TIMEOUT, timeout);
        }

        public Builder ioThreads(int ioThreads) {
            return set(Options.IO_THREADS, ioThreads);
        }

        public Builder connections(int connections) {
            return set(Options.CONNECTIONS, connections);
        }

        public Builder lazy(boolean lazy) {
            return set(Options.LAZY, lazy);
        }

        /**
         * TLS to every provider (Dubbo's {@code ssl-enabled}), with the {@link SslConfig}'s client files; a provider
         * registered with {@code ssl-enabled=true} is reached with TLS in any case. Never falls back to plain text.
         */
        public Builder sslEnabled(boolean enabled) {
            return set(Options.SSL_ENABLED, enabled);
        }

        public Builder maxConnections(int max) {
            return set(Options.MAX_CONNECTIONS, max);
        }

        public Builder poolIdleTimeout(Duration timeout) {
            return set(Options.POOL_IDLE_TIMEOUT, timeout);
        }

        public Builder congestionWait(Duration wait) {
            return set(Options.CONGESTION_WAIT, wait);
        }

        /** True: calls wait through failed connects within their deadline instead of failing at once. */
        public Builder waitForReady(boolean wait) {
            return set(Options.WAIT_FOR_READY, wait);
        }

        public Builder connectTimeout(Duration timeout) {
            return set(Options.CONNECT_TIMEOUT, timeout);
        }

        public Builder payloadBytes(int payloadBytes) {
            return set(Options.PAYLOAD, payloadBytes);
        }

        /** Every socket option at once ({@code tcpNoDelay}, buffers, water marks). */
        public Builder socket(SocketOptions socket) {
            TransportSettings.socketInto(settings, Validate.notNull("socket", socket), "");
            return this;
        }

        public ConsumerConfig build() {
            return new ConsumerConfig(settings.copy(), filters, outlierEjection, retryBudget);
        }
    }
}
