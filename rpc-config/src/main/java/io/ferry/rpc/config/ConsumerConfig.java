package io.ferry.rpc.config;

import io.ferry.rpc.remoting.ClientOptions;
import io.ferry.rpc.remoting.SocketOptions;
import io.ferry.rpc.remoting.Validate;

import io.ferry.rpc.Filter;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Defaults for every reference of this process, each overridable per reference.
 *
 * <table>
 *   <caption>Options and defaults</caption>
 *   <tr><th>option</th><th>default</th></tr>
 *   <tr><td>timeout</td><td>1000 ms</td></tr>
 *   <tr><td>connections</td><td>0: the shared elastic pool to each provider, used by every reference; N: N
 *       connections of the reference's own</td></tr>
 *   <tr><td>maxConnections</td><td>cores: the most connections the shared pool opens to one provider while every
 *       connection stays congested (1: a single connection)</td></tr>
 *   <tr><td>poolIdleTimeout</td><td>30 s: an extra connection idle this long is let go</td></tr>
 *   <tr><td>congestionWait</td><td>100 ms: how long a call waits for a writable connection before it fails
 *       CONGESTED, not sent</td></tr>
 *   <tr><td>lazy</td><td>false</td></tr>
 *   <tr><td>ioThreads</td><td>min(cores + 1, 32): the process's one client event loop group; set it here to
 *       change it for the whole process</td></tr>
 *   <tr><td>connectTimeout</td><td>3 s: TCP connect, then the readiness ping's round trip</td></tr>
 *   <tr><td>heartbeat</td><td>60 s, idle threshold redrawn every cycle in [0.5, 1.5) x this</td></tr>
 *   <tr><td>reconnectBackoff</td><td>100 ms doubling to 5 s, full jitter</td></tr>
 *   <tr><td>connectSpread</td><td>1 s: first connects to providers the registry announces start at a random
 *       moment in this window (a call that needs one starts it at once)</td></tr>
 *   <tr><td>payloadBytes</td><td>8 MiB</td></tr>
 *   <tr><td>socket</td><td>{@link SocketOptions#defaults()}</td></tr>
 *   <tr><td>retries</td><td>2: how many other providers a call that provably did not run may move to</td></tr>
 *   <tr><td>filters</td><td>none: consumer filters around every call of every reference, in order</td></tr>
 *   <tr><td>check</td><td>true: {@code reference()} returns once a provider has a ready connection, or fails after
 *       {@code connectTimeout} naming the providers tried and why; false: it returns at once (Dubbo's
 *       {@code check})</td></tr>
 *   <tr><td>waitForReady</td><td>false: a call to a provider known to be unreachable (its last connect failed,
 *       it is backing off) fails at once, not executed, naming the address and the error; true: it waits for a
 *       connection within its deadline</td></tr>
 *   <tr><td>loadBalance</td><td>{@link LoadBalance#ADAPTIVE}</td></tr>
 *   <tr><td>cluster</td><td>{@link ClusterMode#FAILOVER}</td></tr>
 *   <tr><td>forks</td><td>2: providers a {@link ClusterMode#FORKING} call goes to at once</td></tr>
 *   <tr><td>actives</td><td>0: no limit on calls in flight per method of a reference</td></tr>
 *   <tr><td>outlierEjection</td><td>{@link OutlierEjection#defaults()}</td></tr>
 *   <tr><td>retryBudget</td><td>{@link RetryBudget#defaults()}: 10 retries a second plus 10 % of calls</td></tr>
 * </table>
 */
public final class ConsumerConfig {
    private final Duration timeout;
    private final Integer ioThreads;
    private final ClientOptions client;
    private final Duration connectSpread;
    private final int retries;
    private final boolean check;
    private final List<Filter> filters;
    private final LoadBalance loadBalance;
    private final ClusterMode cluster;
    private final int forks;
    private final int actives;
    private final OutlierEjection outlierEjection;
    private final RetryBudget retryBudget;

    private ConsumerConfig(Builder b) {
        this.loadBalance = b.loadBalance;
        this.cluster = b.cluster;
        this.forks = b.forks;
        this.actives = b.actives;
        this.outlierEjection = b.outlierEjection;
        this.retryBudget = b.retryBudget;
        this.retries = b.retries;
        this.check = b.check;
        this.filters = List.copyOf(b.filters);
        this.timeout = b.timeout;
        this.ioThreads = b.ioThreads;
        this.client = b.client.build();
        this.connectSpread = b.connectSpread;
    }

    public static ConsumerConfig defaults() {
        return builder().build();
    }

    public static Builder builder() {
        return new Builder();
    }

    public Duration timeout() {
        return timeout;
    }

    /** The client IO thread count this config asks for, or null to leave the process's setting alone. */
    public Integer ioThreads() {
        return ioThreads;
    }

    public ClientOptions clientOptions() {
        return client;
    }

    public Duration connectSpread() {
        return connectSpread;
    }

    public int retries() {
        return retries;
    }

    public boolean check() {
        return check;
    }

    public List<Filter> filters() {
        return filters;
    }

    public LoadBalance loadBalance() {
        return loadBalance;
    }

    public ClusterMode cluster() {
        return cluster;
    }

    public int forks() {
        return forks;
    }

    public int actives() {
        return actives;
    }

    public OutlierEjection outlierEjection() {
        return outlierEjection;
    }

    public RetryBudget retryBudget() {
        return retryBudget;
    }

    public static final class Builder {
        private Duration timeout = Duration.ofMillis(1000);
        private Integer ioThreads;
        private final ClientOptions.Builder client = ClientOptions.builder();
        private Duration connectSpread = Duration.ofSeconds(1);
        private int retries = 2;
        private boolean check = true;

        /**
         * True (default): creating a reference waits until one of its providers is ready, and fails after
         * {@code connectTimeout} with the providers tried and why; false: it returns at once and the first calls
         * wait for (or fail on) the connection. Dubbo's {@code check}.
         */
        public Builder check(boolean check) {
            this.check = check;
            return this;
        }
        private final List<Filter> filters = new ArrayList<>();
        private LoadBalance loadBalance = LoadBalance.ADAPTIVE;
        private ClusterMode cluster = ClusterMode.FAILOVER;
        private int forks = 2;
        private int actives;
        private OutlierEjection outlierEjection = OutlierEjection.defaults();
        private RetryBudget retryBudget = RetryBudget.defaults();

        /** How a provider is chosen for each attempt; default {@link LoadBalance#ADAPTIVE}. */
        public Builder loadBalance(LoadBalance loadBalance) {
            this.loadBalance = Validate.notNull("loadBalance", loadBalance);
            return this;
        }

        /** What a failed call means; default {@link ClusterMode#FAILOVER}. */
        public Builder cluster(ClusterMode cluster) {
            this.cluster = Validate.notNull("cluster", cluster);
            return this;
        }

        /** Providers a {@link ClusterMode#FORKING} call goes to at once; default 2. */
        public Builder forks(int forks) {
            this.forks = Validate.between("forks", forks, 1, 100);
            return this;
        }

        /** Most calls in flight per method of a reference; 0 (default) for no limit. */
        public Builder actives(int actives) {
            this.actives = Validate.between("actives", actives, 0, 1_000_000);
            return this;
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
            this.retries = Validate.between("retries", retries, 0, 100);
            return this;
        }

        /** Adds a filter around every call of every reference (before the reference's own filters). */
        public Builder filter(Filter filter) {
            filters.add(Validate.notNull("filter", filter));
            return this;
        }

        public Builder heartbeat(Duration heartbeat) {
            client.heartbeat(heartbeat);
            return this;
        }

        public Builder reconnectBackoff(Duration min, Duration max) {
            client.reconnectBackoff(min, max);
            return this;
        }

        public Builder connectSpread(Duration spread) {
            if (spread == null || spread.isNegative()) {
                throw new IllegalArgumentException("connectSpread: " + spread + " (expected: >= 0)");
            }
            this.connectSpread = spread;
            return this;
        }

        public Builder timeout(Duration timeout) {
            this.timeout = Validate.positive("timeout", timeout);
            return this;
        }

        public Builder ioThreads(int ioThreads) {
            this.ioThreads = Validate.between("ioThreads", ioThreads, 1, 1024);
            return this;
        }

        public Builder connections(int connections) {
            client.connections(connections);
            return this;
        }

        public Builder lazy(boolean lazy) {
            client.lazy(lazy);
            return this;
        }

        public Builder maxConnections(int max) {
            client.maxConnections(max);
            return this;
        }

        public Builder poolIdleTimeout(Duration timeout) {
            client.poolIdleTimeout(timeout);
            return this;
        }

        public Builder congestionWait(Duration wait) {
            client.congestionWait(wait);
            return this;
        }

        /** True: calls wait through failed connects within their deadline instead of failing at once. */
        public Builder waitForReady(boolean wait) {
            client.waitForReady(wait);
            return this;
        }

        public Builder connectTimeout(Duration timeout) {
            client.connectTimeout(timeout);
            return this;
        }

        public Builder payloadBytes(int payloadBytes) {
            client.payloadBytes(payloadBytes);
            return this;
        }

        public Builder socket(SocketOptions socket) {
            client.socket(socket);
            return this;
        }

        public ConsumerConfig build() {
            return new ConsumerConfig(this);
        }
    }
}
