package io.ferry.rpc.remoting.internal.transport;

import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.util.ReferenceCountUtil;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.net.InetSocketAddress;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiConsumer;

/**
 * A TCP connection over 127.0.0.1 whose two ends share one NIO event loop thread, for what an
 * {@code EmbeddedChannel} cannot show: when the IO thread gets to its sockets between tasks (an embedded channel
 * has no IO step, and runs pending tasks inside {@code write}). The far end reads and discards. Opened on first use,
 * closed after each test.
 */
public final class LoopbackConnectionExtension implements AfterEachCallback {
    private volatile Runnable onFarEndRead = () -> { };
    private EventLoopGroup loop;
    private Channel server;
    private Channel connection;

    /** The near end: an active channel on the shared IO thread. */
    public synchronized Channel connection() throws InterruptedException {
        if (connection == null) {
            CountDownLatch accepted = new CountDownLatch(1);
            loop = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
            server = new ServerBootstrap().group(loop).channel(NioServerSocketChannel.class)
                    .childHandler(new ChannelInboundHandlerAdapter() {
                        @Override
                        public void channelActive(ChannelHandlerContext ctx) {
                            accepted.countDown();
                        }

                        @Override
                        public void channelRead(ChannelHandlerContext ctx, Object msg) {
                            ReferenceCountUtil.release(msg);
                            onFarEndRead.run();
                        }
                    })
                    .bind(new InetSocketAddress("127.0.0.1", 0)).syncUninterruptibly().channel();
            connection = new Bootstrap().group(loop).channel(NioSocketChannel.class)
                    .handler(new ChannelInboundHandlerAdapter())
                    .connect(server.localAddress()).syncUninterruptibly().channel();
            if (!accepted.await(10, TimeUnit.SECONDS)) { // the far end reads from its first IO step on
                throw new AssertionError("the far end was never accepted");
            }
        }
        return connection;
    }

    /**
     * Makes {@code count} writes in one task of the IO thread ({@code write} gets a number from 1 and what to run
     * once that write is done) and returns how many were done when the far end first read: the IO thread reads its
     * sockets only between rounds of tasks. Returns once every write is done and the far end has read.
     */
    public long doneWhenTheFarEndFirstRead(int count, BiConsumer<Integer, Runnable> write) throws Exception {
        Channel channel = connection();
        CountDownLatch notDone = new CountDownLatch(count);
        CountDownLatch farEndRead = new CountDownLatch(1);
        AtomicLong doneThen = new AtomicLong(-1);
        onFarEndRead = () -> {
            if (doneThen.compareAndSet(-1, count - notDone.getCount())) {
                farEndRead.countDown();
            }
        };
        channel.eventLoop().submit(() -> {
            for (int i = 1; i <= count; i++) {
                write.accept(i, notDone::countDown);
            }
        }).sync();
        if (!notDone.await(10, TimeUnit.SECONDS) || !farEndRead.await(10, TimeUnit.SECONDS)) {
            throw new AssertionError(notDone.getCount() + " of " + count + " writes never done, or never read");
        }
        return doneThen.get();
    }

    @Override
    public synchronized void afterEach(ExtensionContext context) {
        if (loop == null) {
            return;
        }
        try {
            if (connection != null) {
                connection.close().syncUninterruptibly();
            }
            if (server != null) {
                server.close().syncUninterruptibly();
            }
        } finally {
            loop.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
        }
    }
}
