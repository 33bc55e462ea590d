package io.ferry.rpc.remoting.internal.server;

import io.ferry.rpc.Deadline;
import io.ferry.rpc.RpcStatus;
import io.ferry.rpc.remoting.internal.codec.FrameEncoder;
import io.ferry.rpc.remoting.internal.transport.DrainScheduler;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.util.ReferenceCountUtil;

import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The answers of one connection that wait for it to become writable, instead of piling up in Netty's outbound
 * buffer: while the consumer reads slower than answers are made, they wait here, and each is written once the
 * connection drains below its low water mark. An answer whose caller's deadline has passed by then is not sent:
 * a short TIMEOUT (31) answer goes in its place, so the bandwidth goes to callers still waiting and the big buffer
 * is released at once. Business threads add answers; the connection's IO thread writes them.
 */
final class AnswerQueue {
    private record Answer(ByteBuf frame, long id, Deadline deadline, Runnable done) {
    }

    /** Netty counts each outbound message at its size plus its bookkeeping (96 bytes by default); with a margin. */
    private static final int OUTBOUND_ENTRY_ALLOWANCE = 128;
    /**
     * Answers one drain writes before it gives the IO thread back. While business threads keep the queue full and the
     * socket keeps taking what is flushed, a drain would otherwise run on, and this connection's reads and the other
     * connections of its IO thread would wait: a consumer that sent thousands of requests at once held its IO thread
     * for 30-150 ms per drain. As many as the consumer's {@code CoalescingWriter} writes per flush.
     */
    static final int MAX_ANSWERS_PER_DRAIN = 128;
    /** Answers waiting here, in water marks, past which reading from the consumer pauses. */
    static final int BACKLOG_MARKS = 4;

    private final Channel channel;
    private final Queue<Answer> waiting = new ConcurrentLinkedQueue<>();
    private final AtomicInteger size = new AtomicInteger();
    private final AtomicLong bytes = new AtomicLong();
    private final DrainScheduler drains;
    private final Runnable backlogChanged;
    private boolean backlogged; // IO thread

    /** @param backlogChanged runs on the IO thread when {@link #backlogged()} changes */
    AnswerQueue(Channel channel, Runnable backlogChanged) {
        this.channel = channel;
        this.backlogChanged = backlogChanged;
        this.drains = new DrainScheduler(channel, this::drain, () -> !waiting.isEmpty(), this::dropAll);
    }

    /**
     * Queues an encoded answer for the connection's IO thread, which writes every answer queued by then and
     * flushes once (one syscall for the answers that business threads made meanwhile, where a write and flush of
     * each would cost one apiece). It also flushes before an answer that would take the buffer past its high water
     * mark: a burst of big answers to a consumer that reads must not stop the provider reading from it, while one
     * that does not read still turns the connection unwritable. A drain writes at most
     * {@value #MAX_ANSWERS_PER_DRAIN} answers; the rest wait for the IO thread's next turn at its sockets.
     * {@code done} runs once it has been written or dropped. Any thread.
     */
    void send(ByteBuf frame, long id, Deadline deadline, Runnable done) {
        size.incrementAndGet();
        bytes.addAndGet(frame.readableBytes());
        waiting.add(new Answer(frame, id, deadline, done));
        drains.now(); // also covers writability coming back before the answer was queued
    }

    /**
     * IO thread: the connection became writable again. Netty says so in the middle of a flush, where a drain's own
     * flushes would do nothing, so the drain runs as a task of its own.
     */
    void writable() {
        if (!waiting.isEmpty()) {
            drains.now();
        }
    }

    /**
     * IO thread; none is left waiting on a writable connection (see {@link DrainScheduler}). Whether it stopped at
     * its share.
     */
    private boolean drain() {
        if (!channel.isActive()) {
            dropAll();
            return false;
        }
        boolean wrote = false;
        int written = 0;
        while (channel.isWritable() && written < MAX_ANSWERS_PER_DRAIN) {
            Answer answer = waiting.poll();
            if (answer == null) {
                break;
            }
            size.decrementAndGet();
            ByteBuf frame = answer.frame();
            bytes.addAndGet(-frame.readableBytes());
            if (answer.deadline().isExpired()) {
                ReferenceCountUtil.safeRelease(frame);
                frame = FrameEncoder.errorResponse(channel.alloc(), answer.id(), RpcStatus.TIMEOUT,
                        "The answer was not sent: its caller's deadline of " + answer.deadline().timeoutMillis()
                                + " ms passed while it waited for the connection to drain");
            }
            if (wrote && wouldTurnUnwritable(frame)) {
                channel.flush(); // a reading consumer's socket takes these now, and the mark stays uncrossed
                wrote = false;
            }
            Runnable done = answer.done();
            channel.write(frame).addListener(f -> done.run());
            wrote = true;
            written++;
        }
        if (wrote) {
            channel.flush();
        }
        updateBacklog();
        return written == MAX_ANSWERS_PER_DRAIN; // the rest after this IO thread's next turn at its sockets
    }

    /**
     * IO thread: whether more answers are left waiting after a drain than {@value #BACKLOG_MARKS} times the
     * connection's high water mark, until they are down to as many times its low one. Reading from the consumer
     * pauses meanwhile, as it does while the connection is unwritable: a drain writes at most its share per turn of
     * the IO thread, and one turn's read can bring thousands of requests, so a consumer that sends faster than it
     * reads would otherwise grow this queue without its connection ever turning unwritable. A consumer that reads
     * is not paused by its own window: 512 answers of 250 bytes in flight leave about 94 KiB after a drain.
     */
    boolean backlogged() {
        return backlogged;
    }

    private void updateBacklog() {
        long waitingBytes = bytes.get();
        boolean now = backlogged ? waitingBytes > BACKLOG_MARKS * (long) channel.config().getWriteBufferLowWaterMark()
                : waitingBytes > BACKLOG_MARKS * (long) channel.config().getWriteBufferHighWaterMark();
        if (now != backlogged) {
            backlogged = now;
            backlogChanged.run();
        }
    }

    private boolean wouldTurnUnwritable(ByteBuf frame) {
        return frame.readableBytes() + OUTBOUND_ENTRY_ALLOWANCE >= channel.bytesBeforeUnwritable();
    }

    /** The connection closed or its IO thread stopped: what waits is released and counted out. Any thread. */
    void dropAll() {
        Answer answer;
        while ((answer = waiting.poll()) != null) {
            size.decrementAndGet();
            bytes.addAndGet(-answer.frame().readableBytes());
            ReferenceCountUtil.safeRelease(answer.frame());
            answer.done().run();
        }
    }

    int waiting() {
        return size.get();
    }

    /** Bytes of the answers waiting here. */
    long waitingBytes() {
        return bytes.get();
    }
}
