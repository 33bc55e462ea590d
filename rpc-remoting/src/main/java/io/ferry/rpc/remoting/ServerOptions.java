package io.ferry.rpc.remoting;

import io.ferry.rpc.remoting.internal.transport.DirectMemory;

import java.time.Duration;

/**
 * How a provider listens and runs requests. Immutable; build with {@link #builder()}.
 *
 * <table>
 *   <caption>Options and defaults</caption>
 *   <tr><th>option</th><th>default</th></tr>
 *   <tr><td>host</td><td>null: every local address</td></tr>
 *   <tr><td>port</td><td>20880 (0 picks a free port; read it back from the server)</td></tr>
 *   <tr><td>ioThreads</td><td>min(cores + 1, 32)</td></tr>
 *   <tr><td>backlog</td><td>1024 (the accept queue; Linux caps it at net.core.somaxconn)</td></tr>
 *   <tr><td>threads</td><td>200: the business pool, fixed size</td></tr>
 *   <tr><td>queues</td><td>0: no queue; a request finding every thread busy is answered THREADPOOL_EXHAUSTED (100)</td></tr>
 *   <tr><td>threadpool, corethreads, alive</td><td>fixed, 0, 60 s: see {@link PoolOptions}</td></tr>
 *   <tr><td>dispatcher</td><td>{@link Dispatcher#ALL}: every request on the business pool</td></tr>
 *   <tr><td>payloadBytes</td><td>8 MiB, checked on every request received and every response sent</td></tr>
 *   <tr><td>heartbeat</td><td>60 s: the provider sends none; it closes a connection with no reads for 3 × this</td></tr>
 *   <tr><td>shutdownGrace</td><td>500 ms: after the readonly event, how long requests are still served</td></tr>
 *   <tr><td>shutdownTimeout</td><td>10 s: how long a shutdown waits for requests in flight</td></tr>
 *   <tr><td>accepts</td><td>0 = no limit: connections over it are closed at once, with a log line</td></tr>
 *   <tr><td>socket</td><td>{@link SocketOptions#defaults()}; a connection whose answers pile up past the high
 *       water mark is not read from until they drain below the low one (back-pressure)</td></tr>
 *   <tr><td>frameTimeout</td><td>10 s: a frame still incomplete this long after its first byte is answered
 *       BAD_REQUEST and its connection closed</td></tr>
 *   <tr><td>partialFrameBudgetBytes</td><td>a quarter of the direct-memory limit: what frames arriving in pieces
 *       may hold between them, over all connections; a frame that would overdraw it is refused the same way</td></tr>
 * </table>
 */
public final class ServerOptions {
    public static final int DEFAULT_PORT = 20880;
    public static final int DEFAULT_PAYLOAD = 8 * 1024 * 1024;

    private final String host;
    private final int port;
    private final int ioThreads;
    private final int backlog;
    private final PoolOptions pool;
    private final Dispatcher dispatcher;
    private final int payloadBytes;
    private final SocketOptions socket;
    private final Duration heartbeat;
    private final int accepts;
    private final Duration shutdownGrace;
    private final Duration shutdownTimeout;
    private final Duration frameTimeout;
    private final long partialFrameBudgetBytes;

    private ServerOptions(Builder b) {
        this.frameTimeout = b.frameTimeout;
        this.partialFrameBudgetBytes = b.partialFrameBudgetBytes;
        this.shutdownGrace = b.shutdownGrace;
        this.shutdownTimeout = b.shutdownTimeout;
        this.heartbeat = b.heartbeat;
        this.accepts = b.accepts;
        this.host = b.host;
        this.port = b.port;
        this.ioThreads = b.ioThreads;
        this.backlog = b.backlog;
        this.pool = b.pool;
        this.dispatcher = b.dispatcher;
        this.payloadBytes = b.payloadBytes;
        this.socket = b.socket;
    }

    public static Builder builder() {
        return new Builder();
    }

    public static int defaultIoThreads() {
        return Math.min(Runtime.getRuntime().availableProcessors() + 1, 32);
    }

    public String host() {
        return host;
    }

    public int port() {
        return port;
    }

    public int ioThreads() {
        return ioThreads;
    }

    public int backlog() {
        return backlog;
    }

    public int threads() {
        return pool.threads();
    }

    public int queues() {
        return pool.queues();
    }

    /** The shared business pool. */
    public PoolOptions pool() {
        return pool;
    }

    public Dispatcher dispatcher() {
        return dispatcher;
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

    public int accepts() {
        return accepts;
    }

    public Duration shutdownGrace() {
        return shutdownGrace;
    }

    public Duration shutdownTimeout() {
        return shutdownTimeout;
    }

    public Duration frameTimeout() {
        return frameTimeout;
    }

    public long partialFrameBudgetBytes() {
        return partialFrameBudgetBytes;
    }

    /**
     * A quarter of the JVM's direct-memory limit ({@code -XX:MaxDirectMemorySize}, by default the heap's), and no
     * less than {@link #DEFAULT_PAYLOAD}.
     */
    public static long defaultPartialFrameBudget() {
        return Math.max(DirectMemory.limit() / 4, DEFAULT_PAYLOAD);
    }

    public Builder toBuilder() {
        return new Builder().host(host).port(port).ioThreads(ioThreads).backlog(backlog).pool(pool)
                .dispatcher(dispatcher).payloadBytes(payloadBytes).socket(socket).heartbeat(heartbeat).accepts(accepts)
                .shutdown(shutdownGrace, shutdownTimeout).frameTimeout(frameTimeout)
                .partialFrameBudgetBytes(partialFrameBudgetBytes);
    }

    public static final class Builder {
        private String host;
        private int port = DEFAULT_PORT;
        private int ioThreads = defaultIoThreads();
        private int backlog = 1024;
        private PoolOptions pool = PoolOptions.defaults();
        private Dispatcher dispatcher = Dispatcher.ALL;

        /** The whole shared business pool at once. */
        public Builder pool(PoolOptions pool) {
            this.pool = Validate.notNull("pool", pool);
            return this;
        }

        public Builder threadPool(ThreadPoolKind kind) {
            this.pool = pool.withKind(kind);
            return this;
        }

        public Builder coreThreads(int coreThreads) {
            this.pool = pool.withCoreThreads(coreThreads);
            return this;
        }

        public Builder alive(Duration alive) {
            this.pool = pool.withAlive(alive);
            return this;
        }

        public Builder dispatcher(Dispatcher dispatcher) {
            this.dispatcher = Validate.notNull("dispatcher", dispatcher);
            return this;
        }
        private int payloadBytes = DEFAULT_PAYLOAD;
        private SocketOptions socket = SocketOptions.defaults();
        private Duration heartbeat = Duration.ofSeconds(60);
        private int accepts;
        private Duration shutdownGrace = Duration.ofMillis(500);
        private Duration shutdownTimeout = Duration.ofSeconds(10);
        private Duration frameTimeout = Duration.ofSeconds(10);
        private long partialFrameBudgetBytes = defaultPartialFrameBudget();

        /** How long a frame may take to arrive whole, from its first byte. */
        public Builder frameTimeout(Duration timeout) {
            this.frameTimeout = Validate.positive("frameTimeout", timeout);
            return this;
        }

        /** What frames arriving in pieces may hold between them, over all connections. */
        public Builder partialFrameBudgetBytes(long bytes) {
            if (bytes < 1024) {
                throw new IllegalArgumentException("partialFrameBudgetBytes: " + bytes + " (expected: >= 1024)");
            }
            this.partialFrameBudgetBytes = bytes;
            return this;
        }

        /** Grace: requests still served after the readonly event; timeout: the longest wait for requests in flight. */
        public Builder shutdown(Duration grace, Duration timeout) {
            if (grace == null || grace.isNegative()) {
                throw new IllegalArgumentException("shutdownGrace: " + grace + " (expected: >= 0)");
            }
            this.shutdownGrace = grace;
            this.shutdownTimeout = Validate.positive("shutdownTimeout", timeout);
            return this;
        }

        public Builder heartbeat(Duration heartbeat) {
            this.heartbeat = Validate.positive("heartbeat", heartbeat);
            return this;
        }

        public Builder accepts(int accepts) {
            this.accepts = Validate.atLeast("accepts", accepts, 0);
            return this;
        }

        public Builder host(String host) {
            this.host = host == null || host.isBlank() ? null : host;
            return this;
        }

        public Builder port(int port) {
            this.port = Validate.between("port", port, 0, 65535);
            return this;
        }

        public Builder ioThreads(int ioThreads) {
            this.ioThreads = Validate.between("ioThreads", ioThreads, 1, 1024);
            return this;
        }

        public Builder backlog(int backlog) {
            this.backlog = Validate.atLeast("backlog", backlog, 1);
            return this;
        }

        public Builder threads(int threads) {
            this.pool = pool.withThreads(Validate.between("threads", threads, 1, 10_000));
            return this;
        }

        public Builder queues(int queues) {
            this.pool = pool.withQueues(Validate.atLeast("queues", queues, 0));
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

        public ServerOptions build() {
            return new ServerOptions(this);
        }
    }
}
