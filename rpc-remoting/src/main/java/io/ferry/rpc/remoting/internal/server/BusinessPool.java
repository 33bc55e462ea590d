package io.ferry.rpc.remoting.internal.server;

import io.ferry.rpc.remoting.PoolOptions;
import io.ferry.rpc.remoting.PoolStats;
import io.ferry.rpc.remoting.ThreadPoolKind;
import io.netty.util.concurrent.DefaultThreadFactory;

import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.IntSupplier;
import java.util.concurrent.TimeUnit;

/**
 * A business pool and its admission: the executor never refuses a task (its queue is unbounded, and hands each
 * task to the thread that became idle last: see {@link WarmThreadQueue}), and the
 * {@link Admission} in front of it refuses a request only when {@code threads + queues} are really queued or
 * running. Growing pools make a thread before they queue anything (the queue declines a task while the pool can
 * still grow, and the executor then makes a thread; once it cannot, the task is queued after all).
 */
public final class BusinessPool {
    private final ThreadPoolExecutor executor;
    private final Admission admission;
    /** The name its meters carry: {@link PoolStats#SHARED}, or the service it is dedicated to. */
    private final String name;
    /** Threads running a task now: counted here rather than read from the executor, whose count takes its lock. */
    private final LongAdder busy = new LongAdder();
    private final LongAdder refused = new LongAdder();

    /**
     * @param name       what its meters call it: {@link PoolStats#SHARED} or the service's interface name
     * @param threadName the prefix of its threads' names
     */
    public BusinessPool(PoolOptions options, String name, String threadName) {
        this.name = name;
        this.admission = new Admission(options.threads() + options.queues());
        this.executor = executor(options, threadName, admission);
    }

    /** For tests: a pool named after its threads. */
    public BusinessPool(PoolOptions options, String threadName) {
        this(options, threadName, threadName);
    }

    /** For tests: an executor of the test's own. */
    public BusinessPool(ThreadPoolExecutor executor, int capacity) {
        this.executor = executor;
        this.admission = new Admission(capacity);
        this.name = "test";
    }

    private static ThreadPoolExecutor executor(PoolOptions options, String name, Admission admission) {
        DefaultThreadFactory threads = new DefaultThreadFactory(name, true);
        if (options.kind() == ThreadPoolKind.FIXED) {
            return new ThreadPoolExecutor(options.threads(), options.threads(), 0, TimeUnit.MILLISECONDS,
                    new WarmThreadQueue(), threads);
        }
        long aliveNanos = options.kind() == ThreadPoolKind.LIMITED ? Long.MAX_VALUE : options.alive().toNanos();
        GrowFirstQueue queue = new GrowFirstQueue(admission);
        ThreadPoolExecutor executor = new ThreadPoolExecutor(options.coreThreads(), options.threads(), aliveNanos,
                TimeUnit.NANOSECONDS, queue, threads, (task, pool) -> {
                    if (pool.isShutdown()) {
                        throw new RejectedExecutionException("the business pool is shut down");
                    }
                    queue.forceOffer(task); // at its maximum: wait for a thread after all
                });
        queue.executor = executor;
        return executor;
    }

    /**
     * Declines a task when every thread is busy and the pool can still grow, so the executor makes a thread
     * instead of queueing. "Every thread busy" is read from the admission count (requests queued or running,
     * this one included) rather than the executor's active count, which takes a lock and walks every worker.
     */
    private static final class GrowFirstQueue extends WarmThreadQueue {
        private final Admission admission;
        private volatile ThreadPoolExecutor executor;

        GrowFirstQueue(Admission admission) {
            this.admission = admission;
        }

        @Override
        public boolean offer(Runnable task) {
            ThreadPoolExecutor pool = executor;
            if (pool != null) {
                int size = pool.getPoolSize();
                if (size < pool.getMaximumPoolSize() && admission.held() > size) {
                    return false;
                }
            }
            return super.offer(task);
        }

        /** Queues whatever the pool's size: the queue is unbounded, admission bounds it. */
        void forceOffer(Runnable task) {
            handOrQueue(task);
        }
    }

    Admission.Ticket tryAdmit() {
        return admission.tryAcquire();
    }

    /** Admits a request of a connection whose places {@code connectionHeld} counts, within its fair share. */
    Admission.Ticket tryAdmit(AtomicInteger connectionHeld, IntSupplier connections) {
        return admission.tryAcquire(connectionHeld, connections);
    }

    /** Why a request of a connection holding {@code connectionHeld} places was refused. */
    String describeRefusal(int connectionHeld, int connections) {
        if (admission.held() < admission.capacity() && connectionHeld >= admission.fairShare(connections)) {
            return describe() + "; this connection holds " + connectionHeld + ", its fair share of "
                    + connections + " connections while the pool is three quarters full";
        }
        return describe();
    }

    /**
     * Hands a task (a connection's drainer, which runs requests until none waits) to a thread. Its wrapper counts the
     * thread busy: one allocation per drainer, not per request.
     */
    void execute(Runnable task) {
        executor.execute(() -> {
            busy.increment();
            try {
                task.run();
            } finally {
                busy.decrement();
            }
        });
    }

    /** IO thread: a request was answered THREADPOOL_EXHAUSTED. */
    void refused() {
        refused.increment();
    }

    /** Now, without a lock: requests held by the admission and not running are the queued ones. */
    PoolStats stats() {
        int active = (int) Math.max(0, busy.sum());
        return new PoolStats(name, active, Math.max(0, admission.held() - active), admission.capacity(),
                refused.sum());
    }

    String describe() {
        return admission.held() + " requests running or queued (threads: " + executor.getPoolSize() + " of "
                + executor.getMaximumPoolSize() + ", capacity with queue: " + admission.capacity() + ")";
    }

    public void shutdown() {
        executor.shutdown();
    }

    public void awaitTermination(long millis) throws InterruptedException {
        executor.awaitTermination(millis, TimeUnit.MILLISECONDS);
    }
}
