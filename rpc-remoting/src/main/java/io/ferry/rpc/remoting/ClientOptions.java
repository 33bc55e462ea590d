package io.ferry.rpc.remoting;

import java.time.Duration;

/**
 * How a consumer connects to one provider. Immutable; build with {@link #builder()}.
 *
 * <table>
 *   <caption>Options and defaults</caption>
 *   <tr><th>option</th><th>default</th></tr>
 *   <tr><td>connections</td><td>0: share the client's elastic pool to the provider; N: N connections of this
 *       reference's own, spread over distinct IO threads</td></tr>
 *   <tr><td>maxConnections</td><td>cores: the most connections the shared pool opens to one provider. It starts with
 *       one and opens another while every connection stays congested (unwritable, or more than the low water mark
 *       queued, for 20 ms), each on an IO thread of its own; 1 keeps a single connection</td></tr>
 *   <tr><td>poolIdleTimeout</td><td>30 s: an extra connection of the shared pool that carried no call this long
 *       drains and closes</td></tr>
 *   <tr><td>congestionWait</td><td>100 ms: how long a call waits for a connection to become writable, within its
 *       deadline, before it fails CONGESTED, not sent (so failover can move it)</td></tr>
 *   <tr><td>lazy</td><td>false: connect when the reference is created; true: on the first call</td></tr>
 *   <tr><td>connectTimeout</td><td>3 s: TCP connect, and then the readiness ping's round trip</td></tr>
 *   <tr><td>heartbeat</td><td>60 s: a heartbeat after this long without reads (jittered every cycle); no reads
 *       for 3 × this closes the connection, which then reconnects</td></tr>
 *   <tr><td>reconnectBackoffMin / Max</td><td>100 ms / 5 s: exponential with full jitter, reset after a
 *       successful connect; a call that needs the connection pulls the next attempt forward</td></tr>
 *   <tr><td>payloadBytes</td><td>8 MiB, checked on every request sent and every response received</td></tr>
 *   <tr><td>socket</td><td>{@link SocketOptions#defaults()}</td></tr>
 *   <tr><td>waitForReady</td><td>false: a call to a provider that cannot be connected fails at once (not
 *       executed), so the cluster can try another; true: it waits through reconnect attempts within its
 *       deadline</td></tr>
 * </table>
 * The client IO thread count is not here: it belongs to the {@link Client} (one per bootstrap).
 */
public final class ClientOptions {
    private static final ClientOptions DEFAULTS = builder().build();

    private final int connections;
    private final boolean lazy;
    private final Duration connectTimeout;
    private final int payloadBytes;
    private final SocketOptions socket;
    private final Duration heartbeat;
    private final double heartbeatJitter;
    private final Duration reconnectBackoffMin;
    private final Duration reconnectBackoffMax;
    private final boolean waitForReady;
    private final int maxConnections;
    private final Duration poolIdleTimeout;
    private final Duration congestionWait;

    private ClientOptions(Builder b) {
        this.maxConnections = b.maxConnections;
        this.poolIdleTimeout = b.poolIdleTimeout;
        this.congestionWait = b.congestionWait;
        this.waitForReady = b.waitForReady;
        this.heartbeat = b.heartbeat;
        this.heartbeatJitter = b.heartbeatJitter;
        this.reconnectBackoffMin = b.reconnectBackoffMin;
        this.reconnectBackoffMax = b.reconnectBackoffMax;
        if (reconnectBackoffMax.compareTo(reconnectBackoffMin) < 0) {
            throw new IllegalArgumentException("reconnectBackoffMax: " + reconnectBackoffMax.toMillis()
                    + "ms (expected: >= reconnectBackoffMin " + reconnectBackoffMin.toMillis() + "ms)");
        }
        this.connections = b.connections;
        this.lazy = b.lazy;
        this.connectTimeout = b.connectTimeout;
        this.payloadBytes = b.payloadBytes;
        this.socket = b.socket;
    }

    public static ClientOptions defaults() {
        return DEFAULTS;
    }

    public static Builder builder() {
        return new Builder();
    }

    public int connections() {
        return connections;
    }

    public int maxConnections() {
        return maxConnections;
    }

    public Duration poolIdleTimeout() {
        return poolIdleTimeout;
    }

    public Duration congestionWait() {
        return congestionWait;
    }

    public boolean lazy() {
        return lazy;
    }

    public Duration connectTimeout() {
        return connectTimeout;
    }

    public int payloadBytes() {
        return payloadBytes;
    }

    public SocketOptions socket() {
        return socket;
    }

    public Duration heartbeat() {
        return heartbeat;
    }

    /** Idle thresholds are drawn each cycle in [1 - this, 1 + this) x heartbeat; default 0.5. */
    public double heartbeatJitter() {
        return heartbeatJitter;
    }

    public Duration reconnectBackoffMin() {
        return reconnectBackoffMin;
    }

    public Duration reconnectBackoffMax() {
        return reconnectBackoffMax;
    }

    /** Whether a call waits through failed connects within its deadline; see the class doc. */
    public boolean waitForReady() {
        return waitForReady;
    }

    public Builder toBuilder() {
        return new Builder().connections(connections).lazy(lazy).connectTimeout(connectTimeout)
                .payloadBytes(payloadBytes).socket(socket).heartbeat(heartbeat)
                .heartbeatJitter(heartbeatJitter).reconnectBackoff(reconnectBackoffMin, reconnectBackoffMax)
                .waitForReady(waitForReady).maxConnections(maxConnections).poolIdleTimeout(poolIdleTimeout)
                .congestionWait(congestionWait);
    }

    @Override
    public String toString() {
        return "ClientOptions{connections=" + connections + ", lazy=" + lazy + ", waitForReady=" + waitForReady
                + ", connectTimeout=" + connectTimeout.toMillis() + " ms, payloadBytes=" + payloadBytes
                + ", heartbeat=" + heartbeat.toMillis() + " ms (jitter " + heartbeatJitter + "), reconnectBackoff="
                + reconnectBackoffMin.toMillis() + ".." + reconnectBackoffMax.toMillis() + " ms, maxConnections="
                + maxConnections + ", poolIdleTimeout=" + poolIdleTimeout.toMillis() + " ms, congestionWait="
                + congestionWait.toMillis() + " ms, socket=" + socket + "}";
    }

    public static final class Builder {
        private int connections;
        private boolean lazy;
        private Duration connectTimeout = Duration.ofSeconds(3);
        private int payloadBytes = ServerOptions.DEFAULT_PAYLOAD;
        private SocketOptions socket = SocketOptions.defaults();
        private Duration heartbeat = Duration.ofSeconds(60);
        private double heartbeatJitter = 0.5;
        private Duration reconnectBackoffMin = Duration.ofMillis(100);
        // 5 s: a provider back from a restart had all 10,000 connections again 6 s later in the C10K run (30 s:
        // 11 s); at the cap the mean delay is 2.5 s, so 10,000 consumers of a dead provider try ~4,000 connects/s
        private Duration reconnectBackoffMax = Duration.ofSeconds(5);
        private boolean waitForReady;
        private int maxConnections = Runtime.getRuntime().availableProcessors();
        private Duration poolIdleTimeout = Duration.ofSeconds(30);
        private Duration congestionWait = Duration.ofMillis(100);

        /** The most connections the shared pool opens to one provider under congestion; 1 for a single one. */
        public Builder maxConnections(int max) {
            this.maxConnections = Validate.between("maxConnections", max, 1, 1024);
            return this;
        }

        /** How long an extra connection of the shared pool may carry no call before it is let go. */
        public Builder poolIdleTimeout(Duration timeout) {
            this.poolIdleTimeout = Validate.positive("poolIdleTimeout", timeout);
            return this;
        }

        /** How long a call waits for a writable connection (within its deadline) before failing CONGESTED. */
        public Builder congestionWait(Duration wait) {
            this.congestionWait = Validate.positive("congestionWait", wait);
            return this;
        }

        /** True: calls wait through failed connects within their deadline instead of failing at once. */
        public Builder waitForReady(boolean wait) {
            this.waitForReady = wait;
            return this;
        }

        public Builder heartbeat(Duration heartbeat) {
            this.heartbeat = Validate.positive("heartbeat", heartbeat);
            return this;
        }

        /** 0 turns jitter off (every connection a stall put in step stays in step): for experiments only. */
        public Builder heartbeatJitter(double jitter) {
            if (jitter < 0 || jitter >= 1) {
                throw new IllegalArgumentException("heartbeatJitter: " + jitter + " (expected: 0 <= jitter < 1)");
            }
            this.heartbeatJitter = jitter;
            return this;
        }

        public Builder reconnectBackoff(Duration min, Duration max) {
            this.reconnectBackoffMin = Validate.positive("reconnectBackoffMin", min);
            this.reconnectBackoffMax = Validate.positive("reconnectBackoffMax", max);
            return this;
        }

        public Builder connections(int connections) {
            this.connections = Validate.between("connections", connections, 0, 1024);
            return this;
        }

        public Builder lazy(boolean lazy) {
            this.lazy = lazy;
            return this;
        }

        public Builder connectTimeout(Duration timeout) {
            this.connectTimeout = Validate.positive("connectTimeout", timeout);
            return this;
        }

        public Builder payloadBytes(int payloadBytes) {
            this.payloadBytes = Validate.atLeast("payloadBytes", payloadBytes, 1024);
            return this;
        }

        public Builder socket(SocketOptions socket) {
            this.socket = Validate.notNull("socket", socket);
            return this;
        }

        public ClientOptions build() {
            return new ClientOptions(this);
        }
    }
}
