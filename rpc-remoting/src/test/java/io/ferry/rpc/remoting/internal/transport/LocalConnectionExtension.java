package io.ferry.rpc.remoting.internal.transport;

import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.DefaultEventLoopGroup;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.local.LocalAddress;
import io.netty.channel.local.LocalChannel;
import io.netty.channel.local.LocalServerChannel;
import io.netty.util.ReferenceCountUtil;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.util.concurrent.TimeUnit;

/**
 * A connection on a real event loop, for what {@code EmbeddedChannel} cannot show: the order in which an IO thread
 * runs its tasks (an embedded channel runs pending tasks inside {@code write}). An in-JVM channel pair on one
 * event loop thread; the far end reads and discards. Opened on first use, closed after each test.
 */
public final class LocalConnectionExtension implements AfterEachCallback {
    private EventLoopGroup loop;
    private Channel server;
    private Channel connection;

    /** The near end: an active channel whose writes the far end takes at once. */
    public synchronized Channel connection() {
        if (connection == null) {
            loop = new DefaultEventLoopGroup(1);
            LocalAddress address = new LocalAddress(LocalConnectionExtension.class);
            server = new ServerBootstrap().group(loop).channel(LocalServerChannel.class)
                    .childHandler(new ChannelInboundHandlerAdapter() {
                        @Override
                        public void channelRead(ChannelHandlerContext ctx, Object msg) {
                            ReferenceCountUtil.release(msg);
                        }
                    })
                    .bind(address).syncUninterruptibly().channel();
            connection = new Bootstrap().group(loop).channel(LocalChannel.class)
                    .handler(new ChannelInboundHandlerAdapter())
                    .connect(address).syncUninterruptibly().channel();
        }
        return connection;
    }

    @Override
    public synchronized void afterEach(ExtensionContext context) {
        if (loop != null) {
            connection.close().syncUninterruptibly();
            server.close().syncUninterruptibly();
            loop.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
        }
    }
}
