package io.ferry.rpc.remoting.internal.transport;

import io.netty.channel.Channel;
import io.netty.channel.ChannelPromise;
import io.netty.util.ReferenceCountUtil;
import org.jctools.queues.MpscUnboundedArrayQueue;

import java.util.Queue;
import java.util.concurrent.RejectedExecutionException;

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
     * still gets flushed, and the IO thread reads and writes its sockets before the rest.
     */
    static final int MAX_BATCH = 128;
    /**
     * Frames one array of the queue holds. The queue reuses that array as a ring while the IO thread keeps up, and
     * links another only while more than this wait, so writes allocate nothing but their {@code Pending}; 1024 (8
     * batches, 4 KiB of references per connection) is what Netty's own MPSC queues use.
     */
    private static final int QUEUE_CHUNK = 1024;

    private record Pending(Object message, ChannelPromise promise) {
    }

    private final Channel channel;
    private final Queue<Pending> queue = new MpscUnboundedArrayQueue<>(QUEUE_CHUNK);
    private final DrainScheduler drains;

    public CoalescingWriter(Channel channel) {
        this.channel = channel;
        this.drains = new DrainScheduler(channel, this::drain, () -> !queue.isEmpty(),
                () -> failAll(new RejectedExecutionException("the connection's IO thread has stopped")));
    }

    /** Writes {@code message} soon; {@code promise} completes as Netty's write would. Any thread. */
    public void write(Object message, ChannelPromise promise) {
        queue.add(new Pending(message, promise));
        drains.now();
    }

    /** IO thread; none is left behind (see {@link DrainScheduler}). Whether it stopped at its batch. */
    private boolean drain() {
        int batch = 0;
        Pending pending;
        while (batch < MAX_BATCH && (pending = queue.poll()) != null) {
            channel.write(pending.message(), pending.promise());
            batch++;
        }
        if (batch > 0) {
            channel.flush();
        }
        return batch == MAX_BATCH; // the rest after the IO thread's next turn at its sockets
    }

    /** Writers that find the IO thread stopped, one at a time: the queue has a single consumer. */
    private synchronized void failAll(Throwable cause) {
        Pending pending;
        while ((pending = queue.poll()) != null) {
            ReferenceCountUtil.safeRelease(pending.message());
            pending.promise().tryFailure(cause);
        }
    }
}
