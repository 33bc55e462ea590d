package io.ferry.rpc.remoting.internal.transport;

import io.netty.channel.Channel;
import io.netty.channel.ChannelPromise;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.internal.PlatformDependent;

import java.util.Queue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Writes frames from any thread to one channel, flushing once per batch instead of once per frame. Netty's own
 * {@code writeAndFlush} from outside the event loop queues one task per frame, and each task ends in a flush: one
 * syscall per frame, and a wake-up of the event loop per caller. Here the frames wait in a queue, the first of a
 * batch schedules a single drain, and the drain writes all that are queued (up to {@value #MAX_BATCH}) and flushes
 * once, so that many callers sharing a connection share its syscalls too.
 */
public final class CoalescingWriter {
    /**
     * Frames one drain writes and flushes before it gives the IO thread back, so that a steady stream of callers
     * still gets flushed, and the connection's reads and the IO thread's other connections take their turn.
     */
    static final int MAX_BATCH = 128;

    private record Pending(Object message, ChannelPromise promise) {
    }

    private final Channel channel;
    private final Queue<Pending> queue = PlatformDependent.newMpscQueue();
    private final AtomicBoolean drainScheduled = new AtomicBoolean();
    private final Runnable drain = this::drain;

    public CoalescingWriter(Channel channel) {
        this.channel = channel;
    }

    /** Writes {@code message} soon; {@code promise} completes as Netty's write would. Any thread. */
    public void write(Object message, ChannelPromise promise) {
        queue.add(new Pending(message, promise));
        scheduleDrain();
    }

    private void scheduleDrain() {
        if (drainScheduled.compareAndSet(false, true)) {
            try {
                channel.eventLoop().execute(drain);
            } catch (RejectedExecutionException e) {
                failAll(e); // the event loop has stopped: nothing queued would ever be written
            }
        }
    }

    /**
     * IO thread. The flag is cleared before the queue is read: a frame added after that schedules another drain,
     * and one added before it is written by this one, so none is left behind.
     */
    private void drain() {
        drainScheduled.set(false);
        int batch = 0;
        Pending pending;
        while (batch < MAX_BATCH && (pending = queue.poll()) != null) {
            channel.write(pending.message(), pending.promise());
            batch++;
        }
        if (batch > 0) {
            channel.flush();
        }
        if (batch == MAX_BATCH && !queue.isEmpty()) {
            scheduleDrain(); // the rest after what else waits for this IO thread
        }
    }

    private void failAll(Throwable cause) {
        Pending pending;
        while ((pending = queue.poll()) != null) {
            ReferenceCountUtil.safeRelease(pending.message());
            pending.promise().tryFailure(cause);
        }
    }
}
