package io.ferry.rpc.remoting.internal.server;

import io.ferry.rpc.Ticker;

import java.util.AbstractQueue;
import java.util.Collection;
import java.util.Iterator;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

/**
 * The work queue of a business pool's executor, which hands each task to the thread that became idle <em>last</em>.
 * A {@code LinkedBlockingQueue} wakes the thread that has waited longest, so a pool of 200 threads with two tasks at a
 * time runs them on all 200 in turn, each with cold caches: its stack, its reusable serialization buffers, its
 * allocator cache. Profiled on the TLS getUser benchmark (rpc-benchmark/results/tls-hop-profile.md), all 200 threads
 * ran in every 40 s; handed out newest first, 11 did, and the others stayed parked (and, in pools whose idle threads
 * stop, do stop: woken oldest first every thread runs now and then, and none ever stops).
 *
 * <p>Tasks that arrive while no thread waits are queued in order, as before; a thread that finishes takes the
 * oldest. Waiting threads stand on a stack: {@link #offer} pops the newest and hands it the task directly.
 */
class WarmThreadQueue extends AbstractQueue<Runnable> implements BlockingQueue<Runnable> {
    /** Handed to a waiting thread to make it look at the queued tasks again: see {@link #offer}. */
    private static final Runnable LOOK = () -> { };
    /** A waiter that left (timed out or interrupted) takes this, so nothing can be handed to it any more. */
    private static final Runnable LEFT = () -> { };

    /** Times the executor's timed waits (an idle thread's keep-alive). */
    private final Ticker ticker;
    private final ConcurrentLinkedDeque<Runnable> tasks = new ConcurrentLinkedDeque<>();
    /** Threads waiting for a task, the newest first. One that left is removed; until then, handing to it fails. */
    private final ConcurrentLinkedDeque<Waiter> waiters = new ConcurrentLinkedDeque<>();

    WarmThreadQueue() {
        this(Ticker.system());
    }

    WarmThreadQueue(Ticker ticker) {
        this.ticker = ticker;
    }

    /** A waiting thread, and what was handed to it (null until then): one object per wait. */
    private static final class Waiter extends AtomicReference<Runnable> {
        private static final long serialVersionUID = 1L;
        final transient Thread thread = Thread.currentThread();

        boolean hand(Runnable task) {
            if (compareAndSet(null, task)) {
                LockSupport.unpark(thread);
                return true;
            }
            return false;
        }
    }

    /** Hands {@code task} to the newest waiting thread, or queues it when none waits. Never refuses. */
    @Override
    public boolean offer(Runnable task) {
        return handOrQueue(task);
    }

    /** {@link #offer}, which a subclass may make refuse; this never does. */
    final boolean handOrQueue(Runnable task) {
        if (task == null) {
            throw new NullPointerException();
        }
        for (Waiter waiter; (waiter = waiters.pollFirst()) != null; ) {
            if (waiter.hand(task)) {
                return true;
            }
        }
        tasks.addLast(task);
        // a thread that began to wait after the stack was found empty may have looked at the tasks before this one
        // was added: the newest waiter looks again
        tellNewestToLook();
        return true;
    }

    private void tellNewestToLook() {
        for (Waiter waiter; (waiter = waiters.pollFirst()) != null; ) {
            if (waiter.hand(LOOK)) {
                return;
            }
        }
    }

    @Override
    public Runnable poll() {
        return tasks.pollFirst();
    }

    @Override
    public Runnable take() throws InterruptedException {
        return await(false, 0L);
    }

    @Override
    public Runnable poll(long timeout, TimeUnit unit) throws InterruptedException {
        return await(true, unit.toNanos(timeout));
    }

    /** A task, or null once {@code timed} and {@code nanos} have passed without one. */
    private Runnable await(boolean timed, long nanos) throws InterruptedException {
        long deadline = timed ? ticker.nanoTime() + nanos : 0L;
        while (true) {
            if (Thread.interrupted()) {
                throw new InterruptedException();
            }
            Runnable task = tasks.pollFirst();
            if (task != null) {
                return task;
            }
            Waiter waiter = new Waiter();
            waiters.addFirst(waiter);
            // a task queued just before this thread stood on the stack found nobody to tell: look once more
            task = tasks.pollFirst();
            if (task != null) {
                return leave(waiter, task);
            }
            Runnable handed;
            while ((handed = waiter.get()) == null) {
                if (timed) {
                    long left = deadline - ticker.nanoTime();
                    if (left <= 0L) {
                        return leave(waiter, null);
                    }
                    LockSupport.parkNanos(this, left);
                } else {
                    LockSupport.park(this);
                }
                if (Thread.interrupted()) {
                    Runnable kept = leave(waiter, null);
                    if (kept != null) {
                        Thread.currentThread().interrupt(); // the task runs; the executor sees the interrupt next
                        return kept;
                    }
                    throw new InterruptedException();
                }
            }
            if (handed != LOOK) {
                return handed;
            }
            // told to look: take the task now, before an interrupt could end the wait and leave it queued
            task = tasks.pollFirst();
            if (task != null) {
                return task;
            }
        }
    }

    /**
     * Stops {@code waiter} waiting. Returns {@code found} (a task this thread took itself, or null), or the task
     * handed to it meanwhile; if both, the one found goes back to the head of the queue for another thread.
     */
    private Runnable leave(Waiter waiter, Runnable found) {
        if (waiter.compareAndSet(null, LEFT)) {
            waiters.removeFirstOccurrence(waiter);
            return found;
        }
        Runnable handed = waiter.get();
        if (handed == LOOK) {
            // told to look for a task this thread will not take: another waiter looks instead
            if (!tasks.isEmpty()) {
                tellNewestToLook();
            }
            return found;
        }
        if (found != null) {
            tasks.addFirst(found);
            tellNewestToLook();
        }
        return handed;
    }

    @Override
    public Runnable peek() {
        return tasks.peekFirst();
    }

    @Override
    public void put(Runnable task) {
        handOrQueue(task);
    }

    @Override
    public boolean offer(Runnable task, long timeout, TimeUnit unit) {
        return handOrQueue(task);
    }

    @Override
    public int remainingCapacity() {
        return Integer.MAX_VALUE;
    }

    @Override
    public boolean remove(Object task) {
        return tasks.remove(task);
    }

    @Override
    public int drainTo(Collection<? super Runnable> into) {
        return drainTo(into, Integer.MAX_VALUE);
    }

    @Override
    public int drainTo(Collection<? super Runnable> into, int max) {
        if (into == this) {
            throw new IllegalArgumentException("cannot drain a queue into itself");
        }
        int drained = 0;
        Runnable task;
        while (drained < max && (task = tasks.pollFirst()) != null) {
            into.add(task);
            drained++;
        }
        return drained;
    }

    /** Queued tasks; counting walks the queue (only the executor's statistics and shutdown ask). */
    @Override
    public int size() {
        return tasks.size();
    }

    @Override
    public boolean isEmpty() {
        return tasks.isEmpty();
    }

    /** Threads waiting for a task now. */
    int waiting() {
        return waiters.size();
    }

    @Override
    public Iterator<Runnable> iterator() {
        return tasks.iterator();
    }
}
