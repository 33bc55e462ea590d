package io.ferry.rpc.remoting.internal.transport;

import io.ferry.rpc.remoting.SocketOptions;
import io.netty.bootstrap.AbstractBootstrap;
import io.netty.bootstrap.Bootstrap;
import io.netty.channel.ChannelOption;
import io.netty.channel.ConnectTimeoutException;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.ServerSocketChannel;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.netty.util.concurrent.FastThreadLocalThread;

import java.net.ConnectException;
import java.util.Locale;

/** Epoll where the native transport loads, NIO otherwise; and the socket options applied to every channel. */
public final class Transports {
    private static final boolean EPOLL = Epoll.isAvailable() && !Boolean.getBoolean("ferry.transport.nio");

    private Transports() {
    }

    public static String name() {
        return EPOLL ? "epoll" : "nio";
    }

    /** Event loops on daemon threads named {@code <prefix>-<group>-<n>}, which {@link #inEventLoop()} knows. */
    public static EventLoopGroup newGroup(int threads, String threadNamePrefix) {
        IoHandlerFactory handler = EPOLL ? EpollIoHandler.newFactory() : NioIoHandler.newFactory();
        return new MultiThreadIoEventLoopGroup(threads, new IoThreadFactory(threadNamePrefix), handler);
    }

    public static Class<? extends SocketChannel> socketChannel() {
        return EPOLL ? EpollSocketChannel.class : NioSocketChannel.class;
    }

    public static Class<? extends ServerSocketChannel> serverSocketChannel() {
        return EPOLL ? EpollServerSocketChannel.class : NioServerSocketChannel.class;
    }

    /**
     * Whether {@code failure}, or one of its causes, is a refused connect (ECONNREFUSED): the peer's host answered
     * that nothing listens on the port. Both transports report it as a {@link ConnectException} saying "Connection
     * refused"; a connect timeout is a ConnectException too, but not a refusal.
     */
    public static boolean isConnectionRefused(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof ConnectException && !(t instanceof ConnectTimeoutException) && t.getMessage() != null
                    && t.getMessage().toLowerCase(Locale.ROOT).contains("connection refused")) {
                return true;
            }
        }
        return false;
    }

    /**
     * True on the IO threads of Ferry's event loops (every group {@link #newGroup} made), where nothing may
     * block. Another library's Netty event loop is not recognised: Netty has no public way to ask whether the
     * current thread runs one.
     */
    public static boolean inEventLoop() {
        return Thread.currentThread() instanceof IoThread;
    }

    public static void applyClient(Bootstrap bootstrap, SocketOptions socket) {
        bootstrap.option(ChannelOption.TCP_NODELAY, socket.tcpNoDelay())
                .option(ChannelOption.SO_KEEPALIVE, socket.keepAlive())
                .option(ChannelOption.WRITE_BUFFER_WATER_MARK, waterMark(socket));
        if (socket.sendBufferBytes() > 0) {
            bootstrap.option(ChannelOption.SO_SNDBUF, socket.sendBufferBytes());
        }
        if (socket.receiveBufferBytes() > 0) {
            bootstrap.option(ChannelOption.SO_RCVBUF, socket.receiveBufferBytes());
        }
    }

    public static void applyServerChild(io.netty.bootstrap.ServerBootstrap bootstrap, SocketOptions socket) {
        bootstrap.childOption(ChannelOption.TCP_NODELAY, socket.tcpNoDelay())
                .childOption(ChannelOption.SO_KEEPALIVE, socket.keepAlive())
                .childOption(ChannelOption.WRITE_BUFFER_WATER_MARK, waterMark(socket));
        if (socket.sendBufferBytes() > 0) {
            bootstrap.childOption(ChannelOption.SO_SNDBUF, socket.sendBufferBytes());
        }
        if (socket.receiveBufferBytes() > 0) {
            // set on the listening socket so that the window scale is negotiated with the SYN
            ((AbstractBootstrap<?, ?>) bootstrap).option(ChannelOption.SO_RCVBUF, socket.receiveBufferBytes());
        }
    }

    private static WriteBufferWaterMark waterMark(SocketOptions socket) {
        return new WriteBufferWaterMark(socket.writeBufferLowWaterMark(), socket.writeBufferHighWaterMark());
    }

    /** Netty's default threads (names, daemon, fast thread-locals), of a class that marks them as Ferry's IO. */
    private static final class IoThreadFactory extends DefaultThreadFactory {
        IoThreadFactory(String prefix) {
            super(prefix, true);
        }

        @Override
        protected Thread newThread(Runnable task, String name) {
            return new IoThread(threadGroup, task, name);
        }
    }

    private static final class IoThread extends FastThreadLocalThread {
        IoThread(ThreadGroup group, Runnable task, String name) {
            super(group, task, name);
        }
    }
}
