package io.ferry.rpc.remoting;

import io.ferry.rpc.remoting.internal.codec.FrameDecoder;
import io.ferry.rpc.remoting.internal.server.ServerHandler;
import io.ferry.rpc.remoting.internal.transport.Transports;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.handler.timeout.IdleStateHandler;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.netty.util.concurrent.GlobalEventExecutor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.net.InetSocketAddress;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A provider's listening endpoint: accepts connections on its IO threads, answers heartbeats there, and runs every
 * request on a bounded business pool ({@code threads}, {@code queues}). A request that finds the pool full is
 * answered at once with THREADPOOL_EXHAUSTED (100), from the IO thread. Owns its event loop groups and pool, and
 * releases them on {@link #close()}.
 */
public final class Server implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(Server.class);

    private final ServerOptions options;
    private final EventLoopGroup boss;
    private final EventLoopGroup workers;
    private final ThreadPoolExecutor pool;
    private final ChannelGroup channels = new DefaultChannelGroup("ferry-server", GlobalEventExecutor.INSTANCE);
    private final Channel serverChannel;
    private final InetSocketAddress address;
    private final AtomicBoolean closed = new AtomicBoolean();

    private Server(ServerOptions options, ServiceTable services) {
        this.options = options;
        warnIfBacklogCapped(options.backlog());
        this.boss = Transports.newGroup(1, "ferry-server-boss");
        this.workers = Transports.newGroup(options.ioThreads(), "ferry-server-io");
        BlockingQueue<Runnable> queue = options.queues() == 0
                ? new SynchronousQueue<>() : new LinkedBlockingQueue<>(options.queues());
        this.pool = new ThreadPoolExecutor(options.threads(), options.threads(), 0, TimeUnit.MILLISECONDS, queue,
                new DefaultThreadFactory("ferry-server-biz", true), new ThreadPoolExecutor.AbortPolicy());
        ServerBootstrap bootstrap = new ServerBootstrap().group(boss, workers)
                .channel(Transports.serverSocketChannel())
                .option(ChannelOption.SO_BACKLOG, options.backlog())
                .option(ChannelOption.SO_REUSEADDR, true);
        Transports.applyServerChild(bootstrap, options.socket());
        try {
            InetSocketAddress bind = options.host() == null
                    ? new InetSocketAddress(options.port()) : new InetSocketAddress(options.host(), options.port());
            ServerHandler handler = new ServerHandler(services, pool, options.payloadBytes(), channels,
                    options.accepts());
            long idleNanos = 3 * options.heartbeat().toNanos();
            bootstrap.childHandler(new ChannelInitializer<Channel>() {
                @Override
                protected void initChannel(Channel ch) {
                    ch.pipeline().addLast("idle", new IdleStateHandler(idleNanos, 0, 0, TimeUnit.NANOSECONDS))
                            .addLast("decoder", new FrameDecoder(FrameDecoder.Side.PROVIDER, options.payloadBytes()))
                            .addLast("handler", handler);
                }
            });
            this.serverChannel = bootstrap.bind(bind).syncUninterruptibly().channel();
            this.address = (InetSocketAddress) serverChannel.localAddress();
            handler.localAddress(address);
        } catch (RuntimeException e) {
            shutdownResources();
            throw e;
        }
        log.info("Ferry server listening on {} ({} transport, {} IO threads, {} business threads)", address,
                Transports.name(), options.ioThreads(), options.threads());
    }

    /** Linux silently caps the accept queue at net.core.somaxconn: say so when that defeats the backlog. */
    private static void warnIfBacklogCapped(int backlog) {
        java.nio.file.Path somaxconn = java.nio.file.Path.of("/proc/sys/net/core/somaxconn");
        try {
            int cap = Integer.parseInt(java.nio.file.Files.readString(somaxconn).trim());
            if (cap < backlog) {
                log.warn("backlog {} is capped by net.core.somaxconn = {}: raise it (sysctl -w net.core.somaxconn={})"
                        + " or a reconnect storm may overflow the accept queue", backlog, cap, backlog);
            }
        } catch (java.io.IOException | NumberFormatException e) {
            // not Linux, or not readable: nothing to say
        }
    }

    /** Binds and starts serving {@code services}. Fails if the address cannot be bound. */
    public static Server start(ServerOptions options, ServiceTable services) {
        return new Server(options, services);
    }

    public InetSocketAddress address() {
        return address;
    }

    /** The bound port (useful with port 0). */
    public int port() {
        return address.getPort();
    }

    public ServerOptions options() {
        return options;
    }

    /** Open consumer connections. */
    public int connections() {
        return channels.size();
    }

    /** Stops accepting, closes every connection, and stops the IO threads and the business pool. Idempotent. */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        serverChannel.close().syncUninterruptibly();
        channels.close().awaitUninterruptibly(2, TimeUnit.SECONDS);
        shutdownResources();
    }

    private void shutdownResources() {
        pool.shutdown();
        boss.shutdownGracefully(0, 2, TimeUnit.SECONDS);
        workers.shutdownGracefully(0, 2, TimeUnit.SECONDS).awaitUninterruptibly(3, TimeUnit.SECONDS);
        try {
            pool.awaitTermination(2, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
