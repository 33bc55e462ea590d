package io.ferry.rpc.remoting.internal.transport;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import io.netty.channel.embedded.EmbeddedChannel;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.nio.channels.ClosedChannelException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.RejectedExecutionException;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Frames written from outside the event loop share one flush: the first of a batch schedules a drain, the drain
 * writes every frame queued by then, in order, and flushes once.
 */
class CoalescingWriterTest {
    @RegisterExtension
    final LoopbackConnectionExtension loopback = new LoopbackConnectionExtension();
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
    void aLongBatchIsWrittenAndFlushed128FramesAtATime() {
        for (int i = 0; i < 300; i++) {
            write(i);
        }
        for (int turn = 0; turn < 3; turn++) {
            channel.runPendingTasks(); // the rest of a long batch is a scheduled task: one more per call
        }

        assertEquals(List.of(128, 128, 44), flushes);
        assertEquals(300, sent.size());
    }

    @Test
    void aLongBatchLetsTheIoThreadReadItsSocketsBetweenDrains() throws Exception {
        Channel connection = loopback.connection();
        CoalescingWriter coalescing = new CoalescingWriter(connection);
        int frames = 8 * CoalescingWriter.MAX_BATCH + 10;

        long writtenWhenRead = loopback.doneWhenTheFarEndFirstRead(frames, (id, written) -> {
            ChannelPromise promise = connection.newPromise();
            promise.addListener(f -> written.run());
            if (id == 1) { // a call made while the drain runs (callers do not stop) does not extend it
                promise.addListener(f -> coalescing.write(frame(frames + 1), connection.newPromise()));
            }
            coalescing.write(frame(id), promise);
        });

        assertEquals(CoalescingWriter.MAX_BATCH, writtenWhenRead,
                "the IO thread read its sockets after one drain's batch, before the rest");
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
        Channel orphan = OrphanChannel.create();
        CoalescingWriter coalescing = new CoalescingWriter(orphan);
        ByteBuf first = frame(1);
        ByteBuf second = frame(2);
        ChannelPromise firstWritten = orphan.newPromise();
        ChannelPromise secondWritten = orphan.newPromise();

        coalescing.write(first, firstWritten);
        coalescing.write(second, secondWritten); // not left behind a drain that can never run

        assertInstanceOf(RejectedExecutionException.class, firstWritten.cause());
        assertInstanceOf(RejectedExecutionException.class, secondWritten.cause());
        assertEquals(0, first.refCnt());
        assertEquals(0, second.refCnt());
    }
}
