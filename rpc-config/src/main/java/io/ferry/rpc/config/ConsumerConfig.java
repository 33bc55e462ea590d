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
 *   <tr><td>connections</td><td>0: one connection per provider, shared by every reference</td></tr>
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
 * </table>
 */
public final class ConsumerConfig {
    private final Duration timeout;
    private final Integer ioThreads;
    private final ClientOptions client;
    private final Duration connectSpread;
    private final int retries;
    private final List<Filter> filters;

    private ConsumerConfig(Builder b) {
        this.retries = b.retries;
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

    public List<Filter> filters() {
        return filters;
    }

    public static final class Builder {
        private Duration timeout = Duration.ofMillis(1000);
        private Integer ioThreads;
        private final ClientOptions.Builder client = ClientOptions.builder();
        private Duration connectSpread = Duration.ofSeconds(1);
        private int retries = 2;
        private final List<Filter> filters = new ArrayList<>();

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
