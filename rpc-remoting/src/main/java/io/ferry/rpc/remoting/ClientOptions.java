package io.ferry.rpc.remoting;

import io.ferry.rpc.option.Option;
import io.ferry.rpc.option.OptionValues;
import io.ferry.rpc.spi.Validate;

import java.time.Duration;

import static io.ferry.rpc.remoting.TransportOptions.CONGESTION_WAIT;
import static io.ferry.rpc.remoting.TransportOptions.CONNECTIONS;
import static io.ferry.rpc.remoting.TransportOptions.CONNECT_TIMEOUT;
import static io.ferry.rpc.remoting.TransportOptions.HEARTBEAT;
import static io.ferry.rpc.remoting.TransportOptions.LAZY;
import static io.ferry.rpc.remoting.TransportOptions.MAX_CONNECTIONS;
import static io.ferry.rpc.remoting.TransportOptions.PAYLOAD;
import static io.ferry.rpc.remoting.TransportOptions.POOL_IDLE_TIMEOUT;
import static io.ferry.rpc.remoting.TransportOptions.RECONNECT_BACKOFF_MAX;
import static io.ferry.rpc.remoting.TransportOptions.RECONNECT_BACKOFF_MIN;
import static io.ferry.rpc.remoting.TransportOptions.WAIT_FOR_READY;

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
 *       for 3 × this closes the connection, which then reconnects. Sooner when a call times out with nothing read
 *       since it was sent: a ping then goes out at once, and no read within connectTimeout closes the connection
 *       (a path that drops packets is replaced in seconds, not minutes)</td></tr>
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

    /** The options set here (not the socket's); the fields below are read from them once, for the hot path. */
    private final OptionValues values;
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
    private final TlsOptions tls;

    private ClientOptions(Builder b) {
        this.values = b.values;
        this.tls = b.tls;
        this.socket = b.socket.build();
        this.connections = values.get(CONNECTIONS);
        this.maxConnections = values.get(MAX_CONNECTIONS, Runtime.getRuntime().availableProcessors());
        this.poolIdleTimeout = values.get(POOL_IDLE_TIMEOUT);
        this.congestionWait = values.get(CONGESTION_WAIT);
        this.lazy = values.get(LAZY);
        this.waitForReady = values.get(WAIT_FOR_READY);
        this.connectTimeout = values.get(CONNECT_TIMEOUT);
        this.payloadBytes = values.get(PAYLOAD);
        this.heartbeat = values.get(HEARTBEAT);
        this.heartbeatJitter = b.heartbeatJitter;
        this.reconnectBackoffMin = values.get(RECONNECT_BACKOFF_MIN);
        this.reconnectBackoffMax = values.get(RECONNECT_BACKOFF_MAX);
        if (reconnectBackoffMax.compareTo(reconnectBackoffMin) < 0) {
            throw new IllegalArgumentException("reconnectBackoffMax: " + reconnectBackoffMax.toMillis()
                    + "ms (expected: >= reconnectBackoffMin " + reconnectBackoffMin.toMillis() + "ms)");
        }
    }

    public static ClientOptions defaults() {
        return DEFAULTS;
    }

    public static Builder builder() {
        return new Builder(OptionValues.none(), SocketOptions.builder(), 0.5);
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

    /** TLS to the provider, or null for plain text. */
    public TlsOptions tls() {
        return tls;
    }

    public Builder toBuilder() {
        return new Builder(values, socket.toBuilder(), heartbeatJitter).tls(tls);
    }

    /** Every option set on these options, its socket's included (the rest are at their defaults). */
    public OptionValues values() {
        return values.with(socket.values());
    }

    @Override
    public String toString() {
        return "ClientOptions{connections=" + connections + ", lazy=" + lazy + ", waitForReady=" + waitForReady
                + ", connectTimeout=" + connectTimeout.toMillis() + " ms, payloadBytes=" + payloadBytes
                + ", heartbeat=" + heartbeat.toMillis() + " ms (jitter " + heartbeatJitter + "), reconnectBackoff="
                + reconnectBackoffMin.toMillis() + ".." + reconnectBackoffMax.toMillis() + " ms, maxConnections="
                + maxConnections + ", poolIdleTimeout=" + poolIdleTimeout.toMillis() + " ms, congestionWait="
                + congestionWait.toMillis() + " ms, socket=" + socket + (tls == null ? "" : ", tls=" + tls) + "}";
    }

    public static final class Builder {
        private OptionValues values;
        private SocketOptions.Builder socket;
        private double heartbeatJitter;
        private TlsOptions tls;

        private Builder(OptionValues values, SocketOptions.Builder socket, double heartbeatJitter) {
            this.values = values;
            this.socket = socket;
            this.heartbeatJitter = heartbeatJitter;
        }

        /**
         * Sets one of {@link TransportOptions#CLIENT} (a socket option goes to the socket), checked by the option.
         *
         * @throws IllegalArgumentException naming the option, the value and its range, or the options there are
         */
        public <T> Builder option(Option<T> option, T value) {
            if (TransportOptions.SOCKET.contains(option)) {
                socket.option(option, value);
            } else {
                values = values.with(TransportOptions.accepted(option, TransportOptions.CLIENT, "a client"), value);
            }
            return this;
        }

        /** The most connections the shared pool opens to one provider under congestion; 1 for a single one. */
        public Builder maxConnections(int max) {
            return option(MAX_CONNECTIONS, max);
        }

        /** How long an extra connection of the shared pool may carry no call before it is let go. */
        public Builder poolIdleTimeout(Duration timeout) {
            return option(POOL_IDLE_TIMEOUT, timeout);
        }

        /** How long a call waits for a writable connection (within its deadline) before failing CONGESTED. */
        public Builder congestionWait(Duration wait) {
            return option(CONGESTION_WAIT, wait);
        }

        /** True: calls wait through failed connects within their deadline instead of failing at once. */
        public Builder waitForReady(boolean wait) {
            return option(WAIT_FOR_READY, wait);
        }

        public Builder heartbeat(Duration heartbeat) {
            return option(HEARTBEAT, heartbeat);
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
            return option(RECONNECT_BACKOFF_MIN, min).option(RECONNECT_BACKOFF_MAX, max);
        }

        public Builder connections(int connections) {
            return option(CONNECTIONS, connections);
        }

        public Builder lazy(boolean lazy) {
            return option(LAZY, lazy);
        }

        public Builder connectTimeout(Duration timeout) {
            return option(CONNECT_TIMEOUT, timeout);
        }

        public Builder payloadBytes(int payloadBytes) {
            return option(PAYLOAD, payloadBytes);
        }

        /** Every socket option at once, as {@code socket} has them. */
        public Builder socket(SocketOptions socket) {
            this.socket = Validate.notNull("socket", socket).toBuilder();
            return this;
        }

        /**
         * TLS to the provider (null: plain text). The handshake is part of connecting: it must end within the
         * {@code connectTimeout}, and a failed one fails the connection naming why; there is no fallback to plain
         * text.
         */
        public Builder tls(TlsOptions tls) {
            this.tls = tls;
            return this;
        }

        /** @throws IllegalArgumentException when values that are valid alone clash (backoff min above max) */
        public ClientOptions build() {
            return new ClientOptions(this);
        }
    }
}
