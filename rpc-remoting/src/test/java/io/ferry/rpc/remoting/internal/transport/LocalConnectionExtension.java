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

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiConsumer;

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

    /**
     * Makes {@code count} writes on the IO thread ({@code write} gets a number from 1 and what to run once that write
     * is done), queues another task right behind them (another connection's turn), and returns how many writes were
     * done when that task ran. Returns once every write is done.
     */
    public long doneWhenOtherWorkRan(int count, BiConsumer<Integer, Runnable> write) throws Exception {
        Channel channel = connection();
        CountDownLatch notDone = new CountDownLatch(count);
        AtomicLong doneThen = new AtomicLong(-1);
        channel.eventLoop().submit(() -> {
            for (int i = 1; i <= count; i++) {
                write.accept(i, notDone::countDown);
            }
            channel.eventLoop().execute(() -> doneThen.set(count - notDone.getCount()));
        }).sync();
        if (!notDone.await(10, TimeUnit.SECONDS)) {
            throw new AssertionError(notDone.getCount() + " of " + count + " writes never done");
        }
        channel.eventLoop().submit(() -> { }).sync(); // and whatever else was queued has run
        return doneThen.get();
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
