package io.ferry.rpc.remoting.internal.server;

import io.ferry.rpc.Deadline;
import io.ferry.rpc.RpcStatus;
import io.ferry.rpc.remoting.internal.transport.LoopbackConnectionExtension;
import io.ferry.rpc.remoting.internal.transport.OrphanChannel;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.embedded.EmbeddedChannel;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Answers wait for a connection that is not writable, in Ferry's queue rather than Netty's: once it drains, those
 * whose callers still wait are written, and those whose deadline passed meanwhile become a short TIMEOUT answer.
 */
class AnswerQueueTest {
    @RegisterExtension
    final LoopbackConnectionExtension loopback = new LoopbackConnectionExtension();
    private final AtomicLong now = new AtomicLong();
    private final AtomicInteger done = new AtomicInteger();
    private final AtomicInteger flushes = new AtomicInteger();
    private final AtomicInteger turnedUnwritable = new AtomicInteger();
    private final EmbeddedChannel channel = new EmbeddedChannel();
    private final List<Boolean> backlogChanges = new ArrayList<>();
    private final AnswerQueue answers = new AnswerQueue(channel, () -> backlogChanges.add(this.answers.backlogged()));

    AnswerQueueTest() {
        channel.config().setWriteBufferWaterMark(new WriteBufferWaterMark(8, 16));
        channel.pipeline().addLast(new ChannelOutboundHandlerAdapter() {
            @Override
            public void flush(ChannelHandlerContext ctx) {
                flushes.incrementAndGet();
                ctx.flush();
            }
        });
        channel.pipeline().addLast(new ChannelInboundHandlerAdapter() {
            @Override
            public void channelWritabilityChanged(ChannelHandlerContext ctx) {
                if (ctx.channel().isWritable()) {
                    answers.writable(); // what ServerHandler does
                } else {
                    turnedUnwritable.incrementAndGet(); // where ServerHandler stops reading
                }
            }
        });
    }

    private Deadline after(long millis) {
        return Deadline.after(Duration.ofMillis(millis), now::get);
    }

    private static ByteBuf answer(int size) {
        return Unpooled.buffer().writeZero(size);
    }

    /** A slow reader's backlog: written but not yet taken by the socket. */
    private ByteBuf fillUntilUnwritable() {
        ByteBuf backlog = Unpooled.buffer().writeZero(100);
        channel.write(backlog.retain());
        assertTrue(!channel.isWritable());
        return backlog;
    }

    @Test
    void answersMadeTogetherAreWrittenByTheEventLoopWithOneFlush() {
        channel.config().setWriteBufferWaterMark(new WriteBufferWaterMark(32 * 1024, 64 * 1024));
        ByteBuf first = answer(10);
        ByteBuf second = answer(10);
        answers.send(first, 1, after(1_000), done::incrementAndGet);
        answers.send(second, 2, after(1_000), done::incrementAndGet);
        assertNull(channel.readOutbound(), "the business thread only queues its answer");

        channel.runPendingTasks();

        assertSame(first, channel.readOutbound());
        assertSame(second, channel.readOutbound());
        assertEquals(1, flushes.get(), "one flush, one syscall, for both");
        assertEquals(2, done.get());
    }

    @Test
    void aBurstLargerThanTheHighMarkIsFlushedAsItGoesSoAReadingConsumerIsNeverThrottled() {
        channel.config().setWriteBufferWaterMark(new WriteBufferWaterMark(8 * 1024, 16 * 1024));
        List<ByteBuf> burst = new ArrayList<>();
        for (int id = 1; id <= 10; id++) {
            ByteBuf frame = answer(3_000);
            burst.add(frame);
            answers.send(frame, id, after(1_000), done::incrementAndGet); // 30 KB queued at once
        }

        channel.runPendingTasks();

        assertEquals(10, done.get(), "every answer written in the one drain");
        assertEquals(0, turnedUnwritable.get(), "the high mark is never crossed while the socket takes each flush");
        assertEquals(List.of(), backlogChanges, "nor is reading paused for a backlog");
        assertEquals(2, flushes.get(), "one flush before the answer that would cross 16 KiB, one at the end");
        for (ByteBuf frame : burst) {
            assertSame(frame, channel.readOutbound(), "in the order they were queued");
            frame.release();
        }
    }

    @Test
    void aLongBurstLetsTheIoThreadReadItsSocketsBetweenDrains() throws Exception {
        AnswerQueue queue = new AnswerQueue(loopback.connection(), () -> { });
        int burst = 8 * AnswerQueue.MAX_ANSWERS_PER_DRAIN + 10;

        long writtenWhenRead = loopback.doneWhenTheFarEndFirstRead(burst, (id, written) -> {
            // an answer made while the drain runs (the business threads do not stop) does not extend it
            Runnable done = id > 1 ? written : () -> {
                written.run();
                queue.send(answer(10), burst + 1, Deadline.none(), () -> { });
            };
            queue.send(answer(10), id, Deadline.none(), done);
        });

        assertEquals(AnswerQueue.MAX_ANSWERS_PER_DRAIN, writtenWhenRead,
                "the IO thread read its sockets after one drain's share, before the rest");
    }

    @Test
    void aConsumerThatReadsIsNotPausedByItsOwnWindowOfAnswers() throws Exception {
        List<Boolean> changes = new ArrayList<>();
        AnswerQueue[] queue = new AnswerQueue[1];
        queue[0] = new AnswerQueue(loopback.connection(), () -> changes.add(queue[0].backlogged()));
        int window = 4 * 128; // four caller threads with 128 calls each in flight

        loopback.doneWhenTheFarEndFirstRead(window,
                (id, written) -> queue[0].send(answer(250), id, Deadline.none(), written));

        assertEquals(List.of(), changes, "its reads never paused");
        assertEquals(0, queue[0].waiting());
    }

    @Test
    void aConsumerThatDoesNotReadStillTurnsTheConnectionUnwritableAndTheRestWait() {
        channel.config().setWriteBufferWaterMark(new WriteBufferWaterMark(8 * 1024, 16 * 1024));
        channel.pipeline().addFirst(new ChannelOutboundHandlerAdapter() {
            @Override
            public void flush(ChannelHandlerContext ctx) {
                // the socket takes nothing: written bytes stay pending
            }
        });
        for (int id = 1; id <= 10; id++) {
            answers.send(answer(3_000), id, after(1_000), done::incrementAndGet);
        }

        channel.runPendingTasks();

        assertEquals(1, turnedUnwritable.get(), "where the provider stops reading from it");
        assertEquals(4, answers.waiting(), "six written, up to one past the high mark; the rest wait in Ferry's queue");
        assertEquals(0, done.get(), "none has reached the socket");

        channel.close();
        answers.dropAll();
        assertEquals(10, done.get(), "on close, written and waiting answers are all counted out");
    }

    @Test
    void aBacklogOfAnswersPausesReadingUntilItIsWritten() {
        channel.config().setWriteBufferWaterMark(new WriteBufferWaterMark(8 * 1024, 16 * 1024));
        ChannelOutboundHandlerAdapter notReading = new ChannelOutboundHandlerAdapter() {
            @Override
            public void flush(ChannelHandlerContext ctx) {
                // the socket takes nothing: written bytes stay pending
            }
        };
        channel.pipeline().addFirst(notReading);
        for (int id = 1; id <= 40; id++) {
            answers.send(answer(3_000), id, after(1_000), done::incrementAndGet);
        }

        channel.runPendingTasks();
        assertEquals(34, answers.waiting(), "six written; 102 KB wait in Ferry's queue, past four high marks");
        assertEquals(List.of(true), backlogChanges, "where the provider stops reading from the consumer");

        channel.pipeline().remove(notReading);
        channel.flush(); // the consumer reads again
        channel.runPendingTasks();

        assertEquals(40, done.get());
        assertEquals(List.of(true, false), backlogChanges, "reading resumes once they are written");
        for (int i = 0; i < 40; i++) {
            ((ByteBuf) channel.readOutbound()).release();
        }
    }

    @Test
    void answersWaitForTheConnectionToDrainAndThoseNoLongerAwaitedGoAsShortTimeouts() {
        ByteBuf backlog = fillUntilUnwritable();
        ByteBuf live = answer(1_000);
        ByteBuf late = answer(2_000);
        answers.send(live, 1, after(5_000), done::incrementAndGet);
        answers.send(late, 2, after(1_000), done::incrementAndGet);
        channel.runPendingTasks();
        assertEquals(0, done.get(), "nothing written while unwritable");
        assertEquals(2, answers.waiting());

        now.addAndGet(Duration.ofMillis(2_000).toNanos()); // the second caller gave up meanwhile
        channel.flush(); // the reader catches up

        assertSame(backlog, channel.readOutbound());
        backlog.release(2);
        assertSame(live, channel.readOutbound());
        live.release();
        ByteBuf timeout = channel.readOutbound();
        assertEquals(2, timeout.getLong(4));
        assertEquals(RpcStatus.TIMEOUT.wireCode(), timeout.getByte(3));
        assertTrue(timeout.readableBytes() < 200, "a short answer in place of 2,000 bytes");
        timeout.release();
        assertEquals(0, late.refCnt(), "the unsent answer is released at once");
        assertEquals(2, done.get());
        assertEquals(0, answers.waiting());
    }

    @Test
    void answersForAStoppedIoThreadAreReleasedAndCountedOutAtOnce() {
        AnswerQueue orphaned = new AnswerQueue(OrphanChannel.create(), () -> { });
        ByteBuf first = answer(10);
        ByteBuf second = answer(10);

        orphaned.send(first, 1, Deadline.none(), done::incrementAndGet);
        orphaned.send(second, 2, Deadline.none(), done::incrementAndGet); // not left behind a drain that never runs

        assertEquals(2, done.get());
        assertEquals(0, first.refCnt());
        assertEquals(0, second.refCnt());
        assertEquals(0, orphaned.waiting());
    }

    @Test
    void closingReleasesWhatWaitsAndCountsItOut() {
        ByteBuf backlog = fillUntilUnwritable();
        ByteBuf waiting = answer(1_000);
        answers.send(waiting, 1, Deadline.none(), done::incrementAndGet);
        channel.close();
        answers.dropAll();
        assertEquals(0, waiting.refCnt());
        assertEquals(1, done.get());
        assertNull(channel.readOutbound());
        backlog.release();
    }
}
