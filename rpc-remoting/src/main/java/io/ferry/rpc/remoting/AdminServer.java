package io.ferry.rpc.remoting;

import io.ferry.rpc.remoting.internal.admin.AdminConnection;
import io.ferry.rpc.remoting.internal.admin.AdminLimits;
import io.ferry.rpc.remoting.internal.admin.AdminRouter;
import io.ferry.rpc.remoting.internal.transport.Transports;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.handler.codec.http.HttpDecoderConfig;
import io.netty.handler.codec.http.HttpServerCodec;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The admin port: a small HTTP/1.1 server for operators, in the spirit of Dubbo's QoS port, that answers the
 * {@link AdminRoute routes} it is given and nothing else. It runs on one event loop thread of its own
 * ({@code ferry-admin}), never on the RPC IO threads, so a probe, a bad request or a slow handler cannot delay a
 * call, and a flood of admin requests cannot starve the RPC ports.
 *
 * <p>What it refuses, each time with a JSON {@code {"error": ...}} and then a close:
 * <ul>
 *   <li>a peer other than this machine (403), unless {@code acceptForeignIp}; where it listens is the caller's
 *       choice ({@code host}), the check holds wherever that is;</li>
 *   <li>a POST from a browser page of another origin (403: its {@code Origin} header is not this port's own, as
 *       given by {@code Host}), so that a site the operator visits cannot send a command;</li>
 *   <li>a request line over 4 KiB (414), headers over 8 KiB (431), a body over 8 KiB (413);</li>
 *   <li>a request not complete within {@code requestTimeout} of its connection opening or of the previous answer
 *       (408; a connection that sent nothing is closed quietly);</li>
 *   <li>an unknown path (404) or a method the path does not answer (405, with an {@code Allow} header), answered
 *       without closing.</li>
 * </ul>
 * At most 32 connections are open at once; more are closed at once. Owns its thread, released by
 * {@link #close()}. Thread-safe.
 * <pre>{@code
 * AdminServer admin = AdminServer.builder().port(22222)
 *         .route(AdminRoute.get("/health/live", request -> AdminResponse.json(200,
 *                 new JsonWriter().beginObject().field("live", true).endObject()).now()))
 *         .start();
 * }</pre>
 */
public final class AdminServer implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(AdminServer.class);

    private final EventLoopGroup loop;
    private final ChannelGroup channels;
    private final Channel serverChannel;
    private final InetSocketAddress address;
    private final AtomicBoolean closed = new AtomicBoolean();

    private AdminServer(Builder b) {
        AdminRouter router = new AdminRouter(b.routes);
        AdminLimits limits = new AdminLimits(b.requestTimeout.toNanos(), b.acceptForeignIp);
        this.loop = Transports.newGroup(1, "ferry-admin");
        this.channels = new DefaultChannelGroup("ferry-admin", loop.next());
        ServerBootstrap bootstrap = new ServerBootstrap().group(loop)
                .channel(Transports.serverSocketChannel())
                .option(ChannelOption.SO_BACKLOG, 64)
                .option(ChannelOption.SO_REUSEADDR, true)
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childHandler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        if (channels.size() >= AdminLimits.MAX_CONNECTIONS) {
                            ch.close();
                            return;
                        }
                        channels.add(ch);
                        AdminConnection connection = new AdminConnection(router, limits);
                        ch.pipeline().addLast("arrivals", connection.arrivals())
                                .addLast("http", new HttpServerCodec(new HttpDecoderConfig()
                                        .setMaxInitialLineLength(AdminLimits.MAX_LINE_BYTES)
                                        .setMaxHeaderSize(AdminLimits.MAX_HEADER_BYTES)
                                        .setMaxChunkSize(AdminLimits.MAX_BODY_BYTES)))
                                .addLast("admin", connection);
                    }
                });
        try {
            InetSocketAddress bind = b.host == null ? new InetSocketAddress(b.port)
                    : new InetSocketAddress(b.host, b.port);
            if (bind.isUnresolved()) {
                throw new IllegalArgumentException("admin host: '" + b.host + "' (expected: an address of this "
                        + "machine; it does not resolve)");
            }
            ChannelFuture bound = bootstrap.bind(bind).awaitUninterruptibly();
            if (!bound.isSuccess()) {
                throw new IllegalStateException("qos-port: cannot listen on " + (b.host == null ? "every address"
                        : b.host) + " port " + b.port + ": " + bound.cause().getMessage() + " (expected: a free "
                        + "port, or 0 for any)", bound.cause());
            }
            this.serverChannel = bound.channel();
            this.address = (InetSocketAddress) serverChannel.localAddress();
        } catch (RuntimeException | Error e) {
            loop.shutdownGracefully(0, 1, TimeUnit.SECONDS);
            throw e;
        }
        log.info("Ferry admin port listening on {}:{}{} ({})", address.getHostString(), address.getPort(),
                b.acceptForeignIp ? "" : ", this machine only", router.describe());
    }

    public static Builder builder() {
        return new Builder();
    }

    public InetSocketAddress address() {
        return address;
    }

    /** The bound port (useful with port 0). */
    public int port() {
        return address.getPort();
    }

    /** Stops listening, closes every admin connection and stops the admin thread. Idempotent. */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        serverChannel.close().awaitUninterruptibly(2, TimeUnit.SECONDS);
        channels.close().awaitUninterruptibly(2, TimeUnit.SECONDS);
        loop.shutdownGracefully(0, 1, TimeUnit.SECONDS).awaitUninterruptibly(3, TimeUnit.SECONDS);
    }

    @Override
    public String toString() {
        return "AdminServer{" + address.getHostString() + ":" + address.getPort() + (closed.get() ? ", closed" : "")
                + "}";
    }

    /** Where to listen, whom to serve, and the routes. */
    public static final class Builder {
        private String host = "127.0.0.1";
        private int port = 22222;
        private boolean acceptForeignIp;
        private Duration requestTimeout = Duration.ofSeconds(5);
        private final List<AdminRoute> routes = new ArrayList<>();

        private Builder() {
        }

        /** The address to listen on; default {@code 127.0.0.1}; null for every address of this machine. */
        public Builder host(String host) {
            this.host = host;
            return this;
        }

        /** Default 22222 (Dubbo's {@code qos-port}); 0 picks a free one. */
        public Builder port(int port) {
            if (port < 0 || port > 65535) {
                throw new IllegalArgumentException("qos-port: " + port + " (expected: 0..65535)");
            }
            this.port = port;
            return this;
        }

        /** Whether peers other than this machine are served (Dubbo's {@code qos-accept-foreign-ip}); default false. */
        public Builder acceptForeignIp(boolean accept) {
            this.acceptForeignIp = accept;
            return this;
        }

        /** How long a request may take to arrive; default 5 s. */
        public Builder requestTimeout(Duration timeout) {
            if (timeout == null || timeout.isNegative() || timeout.isZero()) {
                throw new IllegalArgumentException("requestTimeout: " + timeout + " (expected: > 0)");
            }
            this.requestTimeout = timeout;
            return this;
        }

        /** Adds a route; a path may have one route per method. */
        public Builder route(AdminRoute route) {
            routes.add(java.util.Objects.requireNonNull(route, "route"));
            return this;
        }

        public Builder routes(List<AdminRoute> routes) {
            routes.forEach(this::route);
            return this;
        }

        /**
         * Binds and starts serving.
         *
         * @throws IllegalStateException naming {@code qos-port} when the port cannot be bound
         * @throws IllegalArgumentException when two routes share a path and a method
         */
        public AdminServer start() {
            return new AdminServer(this);
        }
    }
}
