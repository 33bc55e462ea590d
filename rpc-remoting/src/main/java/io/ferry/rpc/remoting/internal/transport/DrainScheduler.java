package io.ferry.rpc.remoting.internal.transport;

import io.netty.channel.Channel;

import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;

/**
 * Keeps at most one drain of a connection's outgoing queue waiting for its IO thread. Writers from any thread ask
 * for one with {@link #now()}; the drain calls {@link #started()} before it reads the queue, so a frame queued after
 * that asks for the next drain, and one queued before it is seen by this one. A drain that stops at its share
 * continues with {@link #afterIo()}. If the event loop has stopped, what is queued is given up through
 * {@code abandon} instead, so that none waits forever.
 */
public final class DrainScheduler {
    private final Channel channel;
    private final Runnable drain;
    private final BooleanSupplier hasQueued;
    private final Runnable abandon;
    private final AtomicBoolean scheduled = new AtomicBoolean();

    /**
     * @param drain     writes what is queued; runs on the channel's IO thread and calls {@link #started()} first
     * @param hasQueued whether anything is queued, from any thread
     * @param abandon   releases and fails everything queued, from any thread
     */
    public DrainScheduler(Channel channel, Runnable drain, BooleanSupplier hasQueued, Runnable abandon) {
        this.channel = channel;
        this.drain = drain;
        this.hasQueued = hasQueued;
        this.abandon = abandon;
    }

    /** Any thread: a drain in the IO thread's current round of tasks, unless one is already waiting. */
    public void now() {
        if (scheduled.compareAndSet(false, true)) {
            submit(false);
        }
    }

    /**
     * IO thread: the rest of a drain that stopped at its share, after the IO thread has next read and written its
     * sockets. A task it executes would run in the same round of tasks, ahead of any socket; a scheduled one joins
     * the run queue only when the next round starts, after the IO step.
     */
    public void afterIo() {
        if (scheduled.compareAndSet(false, true)) {
            submit(true);
        }
    }

    /** IO thread, first thing in a drain. */
    public void started() {
        scheduled.set(false);
    }

    private void submit(boolean afterIo) {
        try {
            if (afterIo) {
                channel.eventLoop().schedule(drain, 0, TimeUnit.NANOSECONDS);
            } else {
                channel.eventLoop().execute(drain);
            }
        } catch (RejectedExecutionException e) {
            // the event loop has stopped: nothing queued would ever be written. A frame queued while this gives up
            // finds the flag taken and returns, so look again once it is cleared.
            do {
                abandon.run();
                scheduled.set(false);
            } while (hasQueued.getAsBoolean() && scheduled.compareAndSet(false, true));
        }
    }
}
