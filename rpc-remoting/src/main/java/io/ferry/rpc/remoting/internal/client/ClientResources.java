package io.ferry.rpc.remoting.internal.client;

import io.ferry.rpc.RpcException;
import io.ferry.rpc.RpcStatus;
import io.ferry.rpc.Ticker;
import io.ferry.rpc.remoting.ClientOptions;
import io.ferry.rpc.remoting.ConnectionInfo;
import io.ferry.rpc.remoting.SocketOptions;
import io.ferry.rpc.remoting.TlsOptions;
import io.ferry.rpc.remoting.TransportStats;
import io.ferry.rpc.remoting.internal.transport.ByteCounter;
import io.ferry.rpc.remoting.internal.transport.Traffic;
import io.ferry.rpc.remoting.internal.tls.HandshakeFailure;
import io.ferry.rpc.remoting.internal.tls.TlsContext;
import io.ferry.rpc.remoting.internal.tls.TlsReloader;
import io.netty.handler.ssl.SslHandler;
import java.time.Duration;
import io.ferry.rpc.remoting.internal.codec.FrameDecoder;
import io.ferry.rpc.remoting.internal.exchange.ClientHandler;
import io.ferry.rpc.remoting.internal.exchange.Connections;
import io.ferry.rpc.remoting.internal.exchange.Connection;
import io.ferry.rpc.remoting.internal.liveness.KeepAliveHandler;
import io.ferry.rpc.remoting.internal.transport.Transports;
import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.util.HashedWheelTimer;
import io.netty.util.Timer;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.netty.util.concurrent.EventExecutor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The consumer side's resources, owned by one {@code Client} (and so by one {@code Ferry} bootstrap): a client event
 * loop group, one timer for every call's timeout, one callback executor, and the connections shared by every
 * endpoint that does not ask for its own, and the ticker every one of them reads time from. Nothing here is static:
 * two bootstraps in one process have two of these.
 */
public final class ClientResources {
    private static final Logger log = LoggerFactory.getLogger(ClientResources.class);

    private final int ioThreads;
    private final EventLoopGroup group;
    private final List<EventLoop> loops = new ArrayList<>();
    private final AtomicInteger nextLoop = new AtomicInteger();
    private final HashedWheelTimer timer;
    private final ExecutorService callbacks;
    private final Map<SharedKey, SharedPool> shared = new HashMap<>();
    private final Set<ConnectionPool> pools = ConcurrentHashMap.newKeySet();
    private final Ticker ticker;
    /** One context per distinct TLS options, built when an endpoint first asks (off the IO threads). */
    private final Map<TlsOptions, TlsContext> tlsContexts = new ConcurrentHashMap<>();
    private volatile TlsReloader tlsReloader;
    private final Traffic traffic = new Traffic();
    private final ByteCounter byteCounter = new ByteCounter(traffic);

    /**
     * What makes two shared connections to one address interchangeable: the address and every option that shapes
     * the connection itself (not per-reference choices such as {@code connections} or {@code lazy}).
     */
    private record SharedKey(InetSocketAddress address, Duration connectTimeout, int payloadBytes,
                             SocketOptions socket, Duration heartbeat, double heartbeatJitter,
                             Duration reconnectBackoffMin, Duration reconnectBackoffMax, int maxConnections,
                             Duration poolIdleTimeout, TlsOptions tls) {
        static SharedKey of(InetSocketAddress address, ClientOptions o) {
            return new SharedKey(address, o.connectTimeout(), o.payloadBytes(), o.socket(), o.heartbeat(),
                    o.heartbeatJitter(), o.reconnectBackoffMin(), o.reconnectBackoffMax(), o.maxConnections(),
                    o.poolIdleTimeout(), o.tls());
        }
    }

    /**
     * {@code ticker} times the pools' sizing decisions, the slots' reconnects and every connection's age,
     * back-pressure and heartbeat round trip: tests pass a fake one.
     */
    public ClientResources(int ioThreads, Ticker ticker) {
        this.ticker = ticker;
        this.ioThreads = ioThreads;
        this.group = Transports.newGroup(ioThreads, "ferry-client-io");
        for (EventExecutor executor : group) {
            loops.add((EventLoop) executor);
        }
        this.timer = new HashedWheelTimer(new DefaultThreadFactory("ferry-timer", true), 10, TimeUnit.MILLISECONDS,
                512);
        int callbackThreads = Math.max(4, Runtime.getRuntime().availableProcessors() * 2);
        this.callbacks = Executors.newFixedThreadPool(callbackThreads, new DefaultThreadFactory("ferry-callback", true));
    }

    /** Closes every shared connection still open and stops the group, the timer and the callback executor. */
    public void close() {
        List<SharedPool> open;
        synchronized (shared) {
            open = new ArrayList<>(shared.values());
            shared.clear();
        }
        open.forEach(s -> s.pool.close());
        synchronized (tlsContexts) {
            if (tlsReloader != null) {
                tlsReloader.close();
            }
        }
        group.shutdownGracefully(0, 2, TimeUnit.SECONDS);
        timer.stop();
        callbacks.shutdown();
    }

    /** True once closed: the group, timer and callback executor are shutting down. */
    public boolean isShutdown() {
        return group.isShuttingDown();
    }

    /** The IO thread count of the running group. */
    public int ioThreads() {
        return ioThreads;
    }

    public ExecutorService callbackExecutor() {
        return callbacks;
    }

    public Timer timer() {
        return timer;
    }

    /** Where the client's connections, slots and pools read the time. */
    Ticker ticker() {
        return ticker;
    }

    /** The next event loop, round robin; {@code count} consecutive picks land on distinct loops when possible. */
    EventLoop[] nextLoops(int count) {
        int base = Math.floorMod(nextLoop.getAndAdd(count), loops.size());
        EventLoop[] picked = new EventLoop[count];
        for (int i = 0; i < count; i++) {
            picked[i] = loops.get((base + i) % loops.size());
        }
        return picked;
    }

    /**
     * The TLS context for {@code tls}, built (files read, checked) on first use and then watched for changes.
     * Endpoints ask for it as they are made, so that a bad file fails the reference, not an IO thread.
     *
     * @throws IllegalArgumentException naming the option and file that cannot be used
     */
    public TlsContext tlsContext(TlsOptions tls) {
        TlsContext context = tlsContexts.get(tls);
        if (context != null) {
            return context;
        }
        synchronized (tlsContexts) {
            if (isShutdown()) {
                throw new IllegalStateException("client closed: no new TLS context (it would start a reload thread"
                        + " nobody stops)");
            }
            context = tlsContexts.get(tls);
            if (context == null) {
                context = TlsContext.client(tls, java.time.Clock.systemUTC());
                if (tlsReloader == null) {
                    tlsReloader = new TlsReloader();
                }
                tlsReloader.watch(context);
                tlsContexts.put(tls, context);
            }
            return context;
        }
    }

    CompletableFuture<Connection> connect(InetSocketAddress address, ClientOptions options, EventLoop loop) {
        Bootstrap bootstrap = new Bootstrap().group(loop).channel(Transports.socketChannel())
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) options.connectTimeout().toMillis());
        Transports.applyClient(bootstrap, options.socket());
        bootstrap.handler(new ChannelInitializer<Channel>() {
            @Override
            protected void initChannel(Channel ch) {
                ClientHandler handler = new ClientHandler();
                Connection connection = Connections.bind(handler, ch, address.toString(), timer, ticker, traffic);
                // TLS, when asked for, goes in front once connected: the counter sees frames in the clear
                ch.pipeline().addLast("bytes", byteCounter)
                        .addLast("decoder", new FrameDecoder(FrameDecoder.Side.CONSUMER, options.payloadBytes()))
                        .addLast("keepalive", new KeepAliveHandler(options.heartbeat().toNanos(),
                                options.heartbeatJitter(), options.connectTimeout().toNanos(),
                                connection::nextHeartbeatId))
                        .addLast("handler", handler);
            }
        });
        CompletableFuture<Connection> result = new CompletableFuture<>();
        TlsContext tls = options.tls() == null ? null : tlsContext(options.tls());
        long started = ticker.nanoTime();
        bootstrap.connect(address).addListener((ChannelFuture f) -> {
            if (f.isSuccess()) {
                long left = options.connectTimeout().toNanos() - (ticker.nanoTime() - started);
                if (tls == null) {
                    awaitReadiness(f.channel(), left, result);
                } else {
                    handshake(f.channel(), tls, address, left, result);
                }
            } else {
                String why = Transports.isConnectionRefused(f.cause())
                        ? "connection refused (nothing listens there)" : f.cause().getMessage();
                result.completeExceptionally(RpcException.notExecuted(RpcStatus.NETWORK,
                        "cannot connect to " + address + ": " + why, f.cause()));
            }
        });
        return result;
    }

    private static void awaitReadiness(Channel channel, long budgetNanos, CompletableFuture<Connection> result) {
        Connections.of(channel).awaitReadiness(Math.max(budgetNanos, TimeUnit.MILLISECONDS.toNanos(1)))
                .whenComplete((ready, error) -> {
                    if (error != null) {
                        result.completeExceptionally(error);
                    } else {
                        result.complete(ready);
                    }
                });
    }

    /**
     * IO thread, the TCP connection just made: TLS first, within what is left of the connect timeout (or the
     * handshake timeout, if shorter), then the readiness ping within what is left after it. A failed handshake
     * fails the connection with its reason; nothing is ever sent in plain text.
     */
    private void handshake(Channel channel, TlsContext tls, InetSocketAddress address, long budgetNanos,
                           CompletableFuture<Connection> result) {
        SslHandler ssl = tls.newClientHandler(channel.alloc(), address.getHostString(), address.getPort());
        long budgetMillis = Math.max(1, TimeUnit.NANOSECONDS.toMillis(budgetNanos));
        ssl.setHandshakeTimeoutMillis(Math.min(ssl.getHandshakeTimeoutMillis(), budgetMillis));
        long started = ticker.nanoTime();
        channel.pipeline().addFirst("tls", ssl); // the channel is active: the handshake starts now
        ssl.handshakeFuture().addListener(h -> {
            if (h.isSuccess()) {
                awaitReadiness(channel, budgetNanos - (ticker.nanoTime() - started), result);
            } else {
                result.completeExceptionally(RpcException.notExecuted(RpcStatus.NETWORK, "TLS handshake with "
                        + address + " failed: " + HandshakeFailure.reason(h.cause()), h.cause()));
                channel.close();
            }
        });
    }

    /** The shared pool to {@code address} for endpoints whose connections are shaped like {@code options}. */
    ConnectionPool acquireShared(InetSocketAddress address, ClientOptions options) {
        synchronized (shared) {
            SharedPool pool = shared.computeIfAbsent(SharedKey.of(address, options),
                    k -> new SharedPool(ConnectionPool.elastic(this, address, options)));
            pool.users++;
            pools.add(pool.pool);
            return pool.pool;
        }
    }

    void releaseShared(InetSocketAddress address, ClientOptions options) {
        SharedKey key = SharedKey.of(address, options);
        synchronized (shared) {
            SharedPool pool = shared.get(key);
            if (pool != null && --pool.users == 0) {
                shared.remove(key);
                pools.remove(pool.pool);
                pool.pool.close();
            }
        }
    }

    /** {@code connections} connections of one endpoint's own; close with {@link #release}. */
    ConnectionPool ownPool(InetSocketAddress address, ClientOptions options, int connections) {
        ConnectionPool pool = ConnectionPool.fixed(this, address, options, connections);
        pools.add(pool);
        return pool;
    }

    void release(ConnectionPool pool) {
        pools.remove(pool);
        pool.close();
    }

    /** A snapshot of every connection of every pool. */
    public List<ConnectionInfo> connections() {
        List<ConnectionInfo> all = new ArrayList<>();
        for (ConnectionPool pool : pools) {
            all.addAll(pool.snapshot());
        }
        return all;
    }

    /** How many connections of every pool are in each state now (every state present, 0 when none is). */
    public Map<ConnectionInfo.State, Integer> connectionCounts() {
        Map<ConnectionInfo.State, Integer> counts = new EnumMap<>(ConnectionInfo.State.class);
        for (ConnectionInfo.State state : ConnectionInfo.State.values()) {
            counts.put(state, 0);
        }
        for (ConnectionPool pool : pools) {
            pool.countStates(counts);
        }
        return counts;
    }

    /** What this client's connections have carried since it started. */
    public TransportStats transportStats() {
        return traffic.snapshot();
    }

    /** An event loop that serves none of {@code taken}, when there is one; else the next, round robin. */
    EventLoop loopApartFrom(List<EventLoop> taken) {
        int base = Math.floorMod(nextLoop.getAndIncrement(), loops.size());
        for (int i = 0; i < loops.size(); i++) {
            EventLoop loop = loops.get((base + i) % loops.size());
            if (!taken.contains(loop)) {
                return loop;
            }
        }
        return loops.get(base);
    }

    private static final class SharedPool {
        final ConnectionPool pool;
        int users;

        SharedPool(ConnectionPool pool) {
            this.pool = pool;
        }
    }
}
