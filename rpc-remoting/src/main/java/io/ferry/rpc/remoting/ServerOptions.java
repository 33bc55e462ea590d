package io.ferry.rpc.remoting;

import io.ferry.rpc.option.Option;
import io.ferry.rpc.option.OptionValues;
import io.ferry.rpc.spi.Validate;
import io.ferry.rpc.remoting.internal.transport.DirectMemory;

import java.time.Duration;

import static io.ferry.rpc.remoting.TransportOptions.ACCEPTS;
import static io.ferry.rpc.remoting.TransportOptions.ALIVE;
import static io.ferry.rpc.remoting.TransportOptions.BACKLOG;
import static io.ferry.rpc.remoting.TransportOptions.CORE_THREADS;
import static io.ferry.rpc.remoting.TransportOptions.DISPATCHER;
import static io.ferry.rpc.remoting.TransportOptions.FRAME_TIMEOUT;
import static io.ferry.rpc.remoting.TransportOptions.HEARTBEAT;
import static io.ferry.rpc.remoting.TransportOptions.HOST;
import static io.ferry.rpc.remoting.TransportOptions.IO_THREADS;
import static io.ferry.rpc.remoting.TransportOptions.PARTIAL_FRAME_BUDGET;
import static io.ferry.rpc.remoting.TransportOptions.PAYLOAD;
import static io.ferry.rpc.remoting.TransportOptions.PORT;
import static io.ferry.rpc.remoting.TransportOptions.QUEUES;
import static io.ferry.rpc.remoting.TransportOptions.SHUTDOWN_GRACE;
import static io.ferry.rpc.remoting.TransportOptions.SHUTDOWN_TIMEOUT;
import static io.ferry.rpc.remoting.TransportOptions.THREADS;
import static io.ferry.rpc.remoting.TransportOptions.THREAD_POOL;

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
 *   <tr><td>tls</td><td>null: plain text; else TLS only, see {@link TlsOptions}</td></tr>
 *   <tr><td>partialFrameBudgetBytes</td><td>a quarter of the direct-memory limit: what frames arriving in pieces
 *       may hold between them, over all connections; a frame that would overdraw it is refused the same way</td></tr>
 * </table>
 */
public final class ServerOptions {
    /** The options set here (not the socket's or the pool's); the fields below are read from them once. */
    private final OptionValues values;
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
    private final TlsOptions tls;

    private ServerOptions(Builder b) {
        this.values = b.values;
        this.tls = b.tls;
        this.socket = b.socket.build();
        this.pool = PoolOptions.of(b.pool);
        this.host = values.get(HOST);
        this.port = values.get(PORT);
        this.ioThreads = values.get(IO_THREADS, defaultIoThreads());
        this.backlog = values.get(BACKLOG);
        this.dispatcher = values.get(DISPATCHER);
        this.payloadBytes = values.get(PAYLOAD);
        this.heartbeat = values.get(HEARTBEAT);
        this.accepts = values.get(ACCEPTS);
        this.shutdownGrace = values.get(SHUTDOWN_GRACE);
        this.shutdownTimeout = values.get(SHUTDOWN_TIMEOUT);
        this.frameTimeout = values.get(FRAME_TIMEOUT);
        this.partialFrameBudgetBytes = values.get(PARTIAL_FRAME_BUDGET, defaultPartialFrameBudget());
    }

    public static Builder builder() {
        return new Builder(OptionValues.none(), SocketOptions.builder(), OptionValues.none());
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
        return Math.max(DirectMemory.limit() / 4, PAYLOAD.defaultValue());
    }

    /** The port's TLS, or null for plain text. */
    public TlsOptions tls() {
        return tls;
    }

    public Builder toBuilder() {
        return new Builder(values, socket.toBuilder(), pool.values()).tls(tls);
    }

    /** Every option set on these options, the socket's and the pool's included. */
    public OptionValues values() {
        return values.with(socket.values()).with(pool.values());
    }

    @Override
    public String toString() {
        return "ServerOptions{host=" + (host == null ? "any" : host) + ", port=" + port + ", ioThreads=" + ioThreads
                + ", backlog=" + backlog + ", pool=" + pool + ", dispatcher=" + dispatcher + ", payloadBytes="
                + payloadBytes + ", heartbeat=" + heartbeat.toMillis() + " ms, accepts=" + accepts
                + ", shutdownGrace=" + shutdownGrace.toMillis() + " ms, shutdownTimeout="
                + shutdownTimeout.toMillis() + " ms, frameTimeout=" + frameTimeout.toMillis()
                + " ms, partialFrameBudgetBytes=" + partialFrameBudgetBytes + ", socket=" + socket
                + (tls == null ? "" : ", tls=" + tls) + "}";
    }

    public static final class Builder {
        private OptionValues values;
        private SocketOptions.Builder socket;
        private OptionValues pool;
        private TlsOptions tls;

        private Builder(OptionValues values, SocketOptions.Builder socket, OptionValues pool) {
            this.values = values;
            this.socket = socket;
            this.pool = pool;
        }

        /**
         * Sets one of {@link TransportOptions#SERVER} (a socket option goes to the socket, a pool option to the
         * shared business pool), checked by the option.
         *
         * @throws IllegalArgumentException naming the option, the value and its range, or the options there are
         */
        public <T> Builder option(Option<T> option, T value) {
            if (TransportOptions.SOCKET.contains(option)) {
                socket.option(option, value);
            } else if (TransportOptions.POOL.contains(option)) {
                pool = pool.with(option, value);
            } else {
                values = values.with(TransportOptions.accepted(option, TransportOptions.SERVER, "a server"), value);
            }
            return this;
        }

        /** The shared business pool, every pool option at once. */
        public Builder pool(PoolOptions pool) {
            this.pool = Validate.notNull("pool", pool).values();
            return this;
        }

        public Builder threadPool(ThreadPoolKind kind) {
            return option(THREAD_POOL, kind);
        }

        public Builder coreThreads(int coreThreads) {
            return option(CORE_THREADS, coreThreads);
        }

        public Builder alive(Duration alive) {
            return option(ALIVE, alive);
        }

        public Builder dispatcher(Dispatcher dispatcher) {
            return option(DISPATCHER, dispatcher);
        }

        public Builder frameTimeout(Duration timeout) {
            return option(FRAME_TIMEOUT, timeout);
        }

        public Builder partialFrameBudgetBytes(long bytes) {
            return option(PARTIAL_FRAME_BUDGET, bytes);
        }

        public Builder shutdown(Duration grace, Duration timeout) {
            return option(SHUTDOWN_GRACE, grace).option(SHUTDOWN_TIMEOUT, timeout);
        }

        public Builder heartbeat(Duration heartbeat) {
            return option(HEARTBEAT, heartbeat);
        }

        public Builder accepts(int accepts) {
            return option(ACCEPTS, accepts);
        }

        /** The address to listen on; null or blank for every local address. */
        public Builder host(String host) {
            values = host == null || host.isBlank() ? values.without(HOST) : values.with(HOST, host);
            return this;
        }

        public Builder port(int port) {
            return option(PORT, port);
        }

        public Builder ioThreads(int ioThreads) {
            return option(IO_THREADS, ioThreads);
        }

        public Builder backlog(int backlog) {
            return option(BACKLOG, backlog);
        }

        public Builder threads(int threads) {
            return option(THREADS, threads);
        }

        public Builder queues(int queues) {
            return option(QUEUES, queues);
        }

        public Builder payloadBytes(int payloadBytes) {
            return option(PAYLOAD, payloadBytes);
        }

        /** Every socket option at once, as {@code socket} has them. */
        public Builder socket(SocketOptions socket) {
            this.socket = Validate.notNull("socket", socket).toBuilder();
            return this;
        }

        /** TLS on this port, and only TLS (null: plain text): see {@link TlsOptions}. */
        public Builder tls(TlsOptions tls) {
            this.tls = tls;
            return this;
        }

        /** @throws IllegalArgumentException when the pool's core exceeds its threads */
        public ServerOptions build() {
            return new ServerOptions(this);
        }
    }
}
