package io.ferry.rpc.remoting.internal.server;

import io.netty.channel.EventLoop;

import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * The requests of one connection on their way to one business pool ({@code T}: a request's task). Handing each
 * request to the pool on its own wakes a sleeping thread per request, and for quick methods that wake-up costs more
 * than the method: measured with {@code dispatcher=direct}, the hop was half the CPU of a call. So the requests of a
 * connection wait here, and a few pool tasks (<em>drainers</em>) each run them one after another until none is
 * left: a burst of requests costs a wake-up, not one apiece. Another drainer (up to the parallelism) starts only
 * while the work waiting, by the requests' average running time, would keep each drainer busy for over
 * {@link #SPREAD_NANOS}: a burst of quick requests is cheaper on one warm thread than split between two.
 *
 * <p>A drainer that runs a request which blocks must not hold up the requests behind it. Three guards:
 * <ul>
 *   <li>a connection whose requests keep a thread long (their running time, averaged, is over {@link #SLOW_NANOS})
 *       gets a pool task per request, as without this inbox;</li>
 *   <li>when requests wait and no drainer has taken one for {@link #STALL_NANOS} (all of them busy with something
 *       slow), every waiting request gets a pool task of its own. The connection's IO thread looks as requests
 *       arrive, and again {@code STALL_NANOS} later if none arrives;</li>
 *   <li>when the work waiting, by the average, passes {@link #BACKLOG_NANOS} per drainer (requests that each block a
 *       while, arriving faster than the drainers run them), another drainer starts, past the parallelism.</li>
 * </ul>
 * The pool's admission is unchanged: each request holds its place from the moment it is read.
 */
final class RequestInbox<T extends Runnable> {
    /** Average running time over which a connection's requests each get a pool task of their own. */
    static final long SLOW_NANOS = TimeUnit.MICROSECONDS.toNanos(200);
    /** How long waiting requests may see no drainer take one before they get threads of their own. */
    static final long STALL_NANOS = TimeUnit.MICROSECONDS.toNanos(500);
    /** Work waiting per drainer, by the average running time, over which another drainer is started. */
    static final long SPREAD_NANOS = TimeUnit.MICROSECONDS.toNanos(100);
    /**
     * Work waiting per drainer over which another starts whatever the parallelism: requests that each block a while
     * (under {@code SLOW_NANOS}) but arrive faster than a few threads run them must not queue without end.
     */
    static final long BACKLOG_NANOS = TimeUnit.MILLISECONDS.toNanos(2);

    private final Executor pool;
    private final EventLoop eventLoop;
    private final int parallelism;
    private final Consumer<T> refuse;
    private final Queue<T> waiting = new ConcurrentLinkedQueue<>();
    private final AtomicInteger waitingCount = new AtomicInteger();
    private final AtomicInteger drainers = new AtomicInteger();
    /** Drainers handed to the pool that have not started yet: each will take a request, so none is added for it. */
    private final AtomicInteger pendingDrainers = new AtomicInteger();
    private final Runnable check = this::check;
    private volatile long lastTakenNanos;
    /** Running time of this connection's requests, a moving average; written by drainers, racily (a lost sample
     *  only). */
    private volatile long averageRunNanos;
    private boolean checkScheduled; // IO thread

    /**
     * @param parallelism drainers at most while the work waiting is under {@link #BACKLOG_NANOS} each
     * @param refuse      answers a request the pool would not take (it is shutting down)
     */
    RequestInbox(Executor pool, EventLoop eventLoop, int parallelism, Consumer<T> refuse) {
        this.pool = pool;
        this.eventLoop = eventLoop;
        this.parallelism = parallelism;
        this.refuse = refuse;
        this.lastTakenNanos = now();
    }

    private long now() {
        return eventLoop.ticker().nanoTime();
    }

    /** IO thread: a request admitted to the pool. */
    void add(T task) {
        waiting.add(task);
        int queued = waitingCount.incrementAndGet();
        long average = averageRunNanos;
        if (average > SLOW_NANOS || wantsAnotherDrainer(queued, average)) {
            startDrainers(1);
        } else if (stalled()) {
            startDrainers(queued - pendingDrainers.get());
        } else {
            scheduleCheck();
        }
    }

    /**
     * Whether a request just queued gets another drainer: the first always; more, up to the parallelism, only while
     * the requests waiting would keep each drainer busy for over {@link #SPREAD_NANOS}, and past it only over
     * {@link #BACKLOG_NANOS}. Waking a thread costs more than a quick request, so a burst of quick ones is drained by
     * one warm thread rather than spread over threads that each start cold, while a backlog that would keep the
     * last request waiting long gets more threads.
     */
    private boolean wantsAnotherDrainer(int queued, long averageNanos) {
        int running = drainers.get();
        if (running == 0) {
            return true;
        }
        if (averageNanos == 0) {
            return running < parallelism; // nothing has run yet: the work waiting is unknown
        }
        return queued * averageNanos > running * (running < parallelism ? SPREAD_NANOS : BACKLOG_NANOS);
    }

    private boolean stalled() {
        return waitingCount.get() > 0 && now() - lastTakenNanos > STALL_NANOS;
    }

    /** IO thread, {@code STALL_NANOS} after requests were left waiting for the drainers. */
    private void check() {
        checkScheduled = false;
        int queued = waitingCount.get();
        if (stalled()) {
            // a pool too busy to start the drainers already given to it gets no more of them
            startDrainers(queued - pendingDrainers.get());
        } else if (queued > 0 && wantsAnotherDrainer(queued, averageRunNanos)) {
            // a burst that came while its requests looked quick and then ran slower: what add() would decide now
            startDrainers(1);
        }
        if (waitingCount.get() > 0) {
            scheduleCheck();
        }
    }

    private void scheduleCheck() {
        if (!checkScheduled) {
            checkScheduled = true;
            eventLoop.schedule(check, STALL_NANOS, TimeUnit.NANOSECONDS);
        }
    }

    private void startDrainers(int count) {
        lastTakenNanos = now(); // a drainer on its way counts as progress: no rescue for what it is about to take
        for (int i = 0; i < count; i++) {
            drainers.incrementAndGet();
            pendingDrainers.incrementAndGet();
            try {
                pool.execute(this::drain);
            } catch (RejectedExecutionException shutDown) {
                drainers.decrementAndGet();
                pendingDrainers.decrementAndGet();
                refuseWaiting();
                return;
            }
        }
    }

    private void refuseWaiting() {
        T task;
        while ((task = take()) != null) {
            refuse.accept(task);
        }
    }

    private T take() {
        T task = waiting.poll();
        if (task != null) {
            waitingCount.decrementAndGet();
        }
        return task;
    }

    /**
     * A business thread: runs requests until none waits. Before it ends it looks once more, after saying so: a
     * request added meanwhile either saw it still counted (and started nobody) or is seen here.
     */
    private void drain() {
        pendingDrainers.decrementAndGet();
        do {
            T task;
            while ((task = take()) != null) {
                long started = now();
                lastTakenNanos = started;
                runSafely(task);
                long ran = now() - started;
                long average = averageRunNanos;
                // the first run sets it: climbing from zero, it would read every backlog as lighter than it is
                averageRunNanos = average == 0 ? ran : average + (ran - average) / 8;
            }
            drainers.decrementAndGet();
        } while (!waiting.isEmpty() && claimAgain());
    }

    private static void runSafely(Runnable task) {
        try {
            task.run();
        } catch (Throwable t) {
            // as a pool thread would: reported, and the requests behind it still run
            Thread thread = Thread.currentThread();
            thread.getUncaughtExceptionHandler().uncaughtException(thread, t);
        }
    }

    private boolean claimAgain() {
        for (int n = drainers.get(); n < parallelism; n = drainers.get()) {
            if (drainers.compareAndSet(n, n + 1)) {
                return true;
            }
        }
        return false; // enough drainers: one of them takes it
    }

    int waiting() {
        return waitingCount.get();
    }
}
