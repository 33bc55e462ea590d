package io.ferry.rpc.remoting.internal.transport;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import io.netty.channel.DefaultEventLoopGroup;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.local.LocalChannel;
import io.netty.channel.embedded.EmbeddedChannel;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.nio.channels.ClosedChannelException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Frames written from outside the event loop share one flush: the first of a batch schedules a drain, the drain
 * writes every frame queued by then, in order, and flushes once.
 */
class CoalescingWriterTest {
    @RegisterExtension
    final LocalConnectionExtension local = new LocalConnectionExtension();
    private final List<Integer> flushes = new ArrayList<>();
    private final List<ByteBuf> sent = new ArrayList<>();
    private final EmbeddedChannel channel = new EmbeddedChannel(new ChannelOutboundHandlerAdapter() {
        private int written;

        @Override
        public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
            written++;
            sent.add((ByteBuf) msg);
            promise.setSuccess();
        }

        @Override
        public void flush(ChannelHandlerContext ctx) {
            flushes.add(written);
            written = 0;
        }
    });
    private final CoalescingWriter writer = new CoalescingWriter(channel);

    private static ByteBuf frame(int id) {
        return Unpooled.buffer().writeInt(id);
    }

    private ChannelPromise write(int id) {
        ChannelPromise promise = channel.newPromise();
        writer.write(frame(id), promise);
        return promise;
    }

    private List<Integer> sentIds() {
        List<Integer> ids = new ArrayList<>();
        sent.forEach(b -> ids.add(b.getInt(0)));
        return ids;
    }

    @Test
    void framesQueuedBeforeTheDrainRunsGoOutInOrderWithOneFlush() {
        ChannelPromise first = write(1);
        write(2);
        write(3);
        assertEquals(List.of(), sentIds(), "nothing is written until the event loop drains");

        channel.runPendingTasks();

        assertEquals(List.of(1, 2, 3), sentIds());
        assertEquals(List.of(3), flushes, "one flush for the three frames");
        assertTrue(first.isSuccess());
    }

    @Test
    void aFrameWrittenAfterADrainSchedulesAnotherOne() {
        write(1);
        channel.runPendingTasks();
        write(2);
        channel.runPendingTasks();

        assertEquals(List.of(1, 2), sentIds());
        assertEquals(List.of(1, 1), flushes);
    }

    @Test
    void aLongBatchIsFlushedEvery128Frames() {
        for (int i = 0; i < 300; i++) {
            write(i);
        }
        channel.runPendingTasks();

        assertEquals(300, sent.size());
        assertEquals(List.of(128, 128, 44), flushes);
    }

    @Test
    void aLongBatchGivesTheIoThreadBackAfterEach128Frames() throws Exception {
        Channel connection = local.connection();
        CoalescingWriter coalescing = new CoalescingWriter(connection);
        int frames = 2 * CoalescingWriter.MAX_BATCH + 10;

        long writtenWhenOtherWorkRan = local.doneWhenOtherWorkRan(frames, (id, written) -> {
            ChannelPromise promise = connection.newPromise();
            promise.addListener(f -> written.run());
            coalescing.write(frame(id), promise);
        });

        assertEquals(CoalescingWriter.MAX_BATCH, writtenWhenOtherWorkRan,
                "the first drain stops at its batch; the rest are written after the other work");
    }

    @Test
    void framesForAClosedChannelFailTheirPromisesAndAreReleased() {
        EmbeddedChannel closed = new EmbeddedChannel();
        closed.close();
        ByteBuf frame = frame(1);
        ChannelPromise promise = closed.newPromise();
        new CoalescingWriter(closed).write(frame, promise);
        closed.runPendingTasks();

        assertInstanceOf(ClosedChannelException.class, promise.cause());
        assertEquals(0, frame.refCnt());
    }

    @Test
    void framesForAStoppedEventLoopFailAtOnceAndAreReleased() {
        EventLoopGroup loop = new DefaultEventLoopGroup(1);
        LocalChannel orphan = new LocalChannel();
        loop.register(orphan).syncUninterruptibly();
        loop.shutdownGracefully(0, 0, TimeUnit.SECONDS).syncUninterruptibly();
        ByteBuf frame = frame(1);
        ChannelPromise promise = orphan.newPromise();

        new CoalescingWriter(orphan).write(frame, promise);

        assertInstanceOf(RejectedExecutionException.class, promise.cause());
        assertEquals(0, frame.refCnt());
    }
}
