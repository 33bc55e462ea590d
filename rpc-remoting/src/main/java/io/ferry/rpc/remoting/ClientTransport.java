package io.ferry.rpc.remoting;

import io.ferry.rpc.RpcException;
import io.ferry.rpc.RpcStatus;
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
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The consumer side's process-wide resources: one client event loop group, one timer for every call's timeout,
 * one callback executor, and the connections shared by every reference that does not ask for its own.
 *
 * <p>Created on first use with the consumer-wide IO thread count ({@link #configure}, default
 * min(cores + 1, 32)), shared by every {@link ProviderClient}, and shut down when the last one closes.
 */
public final class ClientTransport {
    private static final Logger log = LoggerFactory.getLogger(ClientTransport.class);
    private static final Object LOCK = new Object();
    private static int configuredIoThreads = ServerOptions.defaultIoThreads();
    private static ClientTransport instance;
    private static int users;

    private final int ioThreads;
    private final EventLoopGroup group;
    private final List<EventLoop> loops = new ArrayList<>();
    private final AtomicInteger nextLoop = new AtomicInteger();
    private final HashedWheelTimer timer;
    private final ExecutorService callbacks;
    private final Map<InetSocketAddress, SharedSlot> shared = new HashMap<>();

    private ClientTransport(int ioThreads) {
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

    /**
     * Sets the number of client IO threads for this process. Takes effect when the group is next created; while one
     * runs with another count, the running count stays and a warning says so.
     */
    public static void configure(int ioThreads) {
        Validate.between("ioThreads", ioThreads, 1, 1024);
        synchronized (LOCK) {
            configuredIoThreads = ioThreads;
            if (instance != null && instance.ioThreads != ioThreads) {
                log.warn("ioThreads: {} requested, but the client event loop group already runs with {}; "
                        + "it keeps that count until every client has closed", ioThreads, instance.ioThreads);
            }
        }
    }

    /** Takes a share of the process's transport, creating it if needed; give it back with {@link #release()}. */
    public static ClientTransport acquire() {
        synchronized (LOCK) {
            if (instance == null) {
                instance = new ClientTransport(configuredIoThreads);
            }
            users++;
            return instance;
        }
    }

    /** Gives back a share; the last one shuts the transport down. */
    public void release() {
        synchronized (LOCK) {
            if (--users > 0) {
                return;
            }
            instance = null;
        }
        group.shutdownGracefully(0, 2, TimeUnit.SECONDS);
        timer.stop();
        callbacks.shutdown();
    }

    /** True once the last client has closed and the group, timer and callback executor are shutting down. */
    public boolean isShutdown() {
        return group.isShuttingDown();
    }

    /** The IO thread count of the running group. */
    public int ioThreads() {
        return ioThreads;
    }

    public Executor callbackExecutor() {
        return callbacks;
    }

    Timer timer() {
        return timer;
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

    CompletableFuture<Connection> connect(InetSocketAddress address, ClientOptions options, EventLoop loop) {
        Bootstrap bootstrap = new Bootstrap().group(loop).channel(Transports.socketChannel())
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) options.connectTimeout().toMillis());
        Transports.applyClient(bootstrap, options.socket());
        bootstrap.handler(new ChannelInitializer<Channel>() {
            @Override
            protected void initChannel(Channel ch) {
                ClientHandler handler = new ClientHandler();
                Connection connection = Connections.bind(handler, ch, address.toString(), timer);
                ch.pipeline().addLast("decoder", new FrameDecoder(FrameDecoder.Side.CONSUMER, options.payloadBytes()))
                        .addLast("keepalive", new KeepAliveHandler(options.heartbeat().toNanos(),
                                options.heartbeatJitter(), connection::nextId))
                        .addLast("handler", handler);
            }
        });
        CompletableFuture<Connection> result = new CompletableFuture<>();
        bootstrap.connect(address).addListener((ChannelFuture f) -> {
            if (f.isSuccess()) {
                Connections.of(f.channel()).awaitReadiness(options.connectTimeout().toNanos())
                        .whenComplete((ready, error) -> {
                            if (error != null) {
                                result.completeExceptionally(error);
                            } else {
                                result.complete(ready);
                            }
                        });
            } else {
                result.completeExceptionally(RpcException.notExecuted(RpcStatus.NETWORK,
                        "cannot connect to " + address + ": " + f.cause().getMessage(), f.cause()));
            }
        });
        return result;
    }

    /** The process's shared connection to {@code address}; its first user's options apply to it. */
    ConnectionSlot acquireShared(InetSocketAddress address, ClientOptions options) {
        synchronized (shared) {
            SharedSlot slot = shared.computeIfAbsent(address,
                    a -> new SharedSlot(new ConnectionSlot(this, a, options, nextLoops(1)[0])));
            slot.users++;
            return slot.slot;
        }
    }

    void releaseShared(InetSocketAddress address) {
        synchronized (shared) {
            SharedSlot slot = shared.get(address);
            if (slot != null && --slot.users == 0) {
                shared.remove(address);
                slot.slot.close();
            }
        }
    }

    private static final class SharedSlot {
        final ConnectionSlot slot;
        int users;

        SharedSlot(ConnectionSlot slot) {
            this.slot = slot;
        }
    }
}
