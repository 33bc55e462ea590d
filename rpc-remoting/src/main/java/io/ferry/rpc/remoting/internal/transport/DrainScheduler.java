package io.ferry.rpc.remoting.internal.transport;

import io.netty.channel.Channel;
import io.netty.util.concurrent.FutureListener;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;

/**
 * When a connection's outgoing queue is drained on its IO thread. Writers from any thread ask with {@link #now()}.
 * At most one drain is queued or running at a time. A drain that stops at its share, or during which more was asked for, is followed by the next
 * only after the IO thread has read and written its sockets: otherwise writers that keep the queue full would keep
 * the IO thread in one round of tasks. If the event loop has stopped, what is queued is given up through
 * {@code abandon}, so that none waits forever.
 */
public final class DrainScheduler {
    private static final Logger log = LoggerFactory.getLogger(DrainScheduler.class);
    private static final int IDLE = 0;
    private static final int QUEUED = 1;
    private static final int RUNNING = 2;
    /** Running, and asked for again meanwhile. */
    private static final int RUNNING_AGAIN = 3;

    private final Channel channel;
    private final BooleanSupplier drain;
    private final BooleanSupplier hasQueued;
    private final Runnable abandon;
    private final AtomicInteger state = new AtomicInteger(IDLE);
    private final Runnable task = this::run;
    private final FutureListener<Object> giveUpIfCancelled = f -> {
        if (f.isCancelled()) {
            giveUp(); // the event loop is shutting down and cancelled it
        }
    };

    /**
     * @param drain     on the channel's IO thread: writes up to its share of what is queued, and says whether it
     *                  stopped at its share with more queued
     * @param hasQueued whether anything is queued, from any thread
     * @param abandon   releases and fails everything queued, from any thread
     */
    public DrainScheduler(Channel channel, BooleanSupplier drain, BooleanSupplier hasQueued, Runnable abandon) {
        this.channel = channel;
        this.drain = drain;
        this.hasQueued = hasQueued;
        this.abandon = abandon;
    }

    /** Any thread, after queueing: a drain in the IO thread's current round of tasks, or after the running one. */
    public void now() {
        while (true) {
            int current = state.get();
            if (current == IDLE && state.compareAndSet(IDLE, QUEUED)) {
                submit(false);
                return;
            }
            if (current == QUEUED || current == RUNNING_AGAIN
                    || current == RUNNING && state.compareAndSet(RUNNING, RUNNING_AGAIN)) {
                return;
            }
        }
    }

    /** IO thread. Running is set before the queue is read: a frame queued after that asks for another drain. */
    private void run() {
        state.set(RUNNING);
        boolean more = true; // a drain that fails leaves nothing stranded
        try {
            more = drain.getAsBoolean();
        } catch (RuntimeException e) {
            log.warn("{}: a drain of its write queue failed", channel, e);
        }
        // idle unless more is queued or was asked for meanwhile: a writer that queues from then on asks again
        if (more && hasQueued.getAsBoolean() || !state.compareAndSet(RUNNING, IDLE)) {
            state.set(QUEUED);
            submit(true);
        }
    }

    /**
     * A task that the IO thread executes runs in its current round of tasks, ahead of any socket; a scheduled one
     * joins the run queue only when the next round starts, after the IO step (which does not block while it is due).
     * A shutting-down event loop may have cancelled its scheduled tasks for the last time already, so there the
     * drain is executed: it runs in the loop's last round, or is rejected.
     */
    private void submit(boolean afterIo) {
        try {
            if (afterIo && !channel.eventLoop().isShuttingDown()) {
                channel.eventLoop().schedule(task, 0, TimeUnit.NANOSECONDS).addListener(giveUpIfCancelled);
            } else {
                channel.eventLoop().execute(task);
            }
        } catch (RejectedExecutionException e) {
            giveUp();
        }
    }

    /**
     * Nothing queued would ever be written. A writer that queues while this gives up finds a drain asked for and
     * returns, so look again once the state is idle.
     */
    private void giveUp() {
        do {
            abandon.run();
            state.set(IDLE);
        } while (hasQueued.getAsBoolean() && state.compareAndSet(IDLE, QUEUED));
    }
}
