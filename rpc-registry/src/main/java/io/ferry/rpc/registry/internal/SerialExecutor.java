package io.ferry.rpc.registry.internal;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayDeque;
import java.util.Queue;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * An ordered view over a {@link ScheduledExecutorService} that other code shares: tasks run one at a time, in the
 * order they were given, with no thread of their own. Each task goes to the scheduler as a step of its own, so a
 * long queue here takes turns with the scheduler's other users instead of holding its thread.
 *
 * <p>{@link #close()} drops the tasks not yet run and refuses new ones (quietly: a registry closing races its own
 * callbacks); it never shuts the scheduler down, which belongs to whoever made it. A task that throws is logged
 *  and the next one runs. Thread-safe.
 */
public final class SerialExecutor implements Executor {
    private static final Logger log = LoggerFactory.getLogger(SerialExecutor.class);

    private final ScheduledExecutorService scheduler;
    private final Queue<Runnable> tasks = new ArrayDeque<>(); // guarded by this
    /** Whether a step is queued on, or running in, the scheduler. Guarded by this. */
    private boolean stepping;
    private boolean closed; // guarded by this
    /** The thread that ran the last step; with a one-thread scheduler, its thread. */
    private volatile Thread lastRunner;

    public SerialExecutor(ScheduledExecutorService scheduler) {
        this.scheduler = scheduler;
        execute(() -> { }); // learns the scheduler's thread at once, for isSchedulerThread()
    }

    /** Runs {@code task} after every task given before it; a no-op once closed. */
    @Override
    public void execute(Runnable task) {
        synchronized (this) {
            if (closed) {
                return;
            }
            tasks.add(task);
            if (stepping) {
                return;
            }
            stepping = true;
        }
        submitStep();
    }

    /** Queues {@code task} here after {@code delay}; false when closed or the scheduler refuses work. */
    public boolean schedule(Runnable task, long delay, TimeUnit unit) {
        synchronized (this) {
            if (closed) {
                return false;
            }
        }
        try {
            scheduler.schedule(() -> execute(task), delay, unit);
            return true;
        } catch (RejectedExecutionException e) {
            log.warn("the registry's scheduler refuses work (shut down before the registry was closed?): {}",
                    e.toString());
            return false;
        }
    }

    /**
     * Whether the calling thread is the one that last ran a task here: code on it must not wait for tasks queued
     * here, which would run only after it returns. Exact for a one-thread scheduler.
     */
    public boolean isSchedulerThread() {
        return Thread.currentThread() == lastRunner;
    }

    /** Drops the tasks not yet run and refuses new ones. Leaves the scheduler running. Idempotent. */
    public void close() {
        synchronized (this) {
            closed = true;
            tasks.clear();
        }
    }

    private void submitStep() {
        try {
            scheduler.execute(this::step);
        } catch (RejectedExecutionException e) {
            synchronized (this) {
                stepping = false;
                tasks.clear();
            }
            log.warn("the registry's scheduler refuses work (shut down before the registry was closed?): {}",
                    e.toString());
        }
    }

    /** One task, then hands the thread back to the scheduler, queueing the next step if more wait. */
    private void step() {
        Runnable task;
        synchronized (this) {
            task = tasks.poll();
            if (task == null) {
                stepping = false;
                return;
            }
        }
        lastRunner = Thread.currentThread();
        try {
            task.run();
        } catch (RuntimeException e) {
            log.warn("registry task failed", e);
        } catch (Error e) {
            log.error("registry task failed", e); // here: the scheduler's future would keep it unseen
            throw e;
        } finally {
            nextStep(); // even after an Error: the tasks behind it must not wait forever
        }
    }

    private void nextStep() {
        synchronized (this) {
            if (tasks.isEmpty()) {
                stepping = false;
                return;
            }
        }
        submitStep();
    }
}
