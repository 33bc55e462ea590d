package io.ferry.rpc.config.internal;

import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.locks.LockSupport;

/**
 * Lets a thread blocked in a synchronous call run its own call's completion: the IO thread hands over the response
 * and the waiting thread decodes it, with no hop through a pool and no decoding on the IO thread.
 *
 * <p>One per synchronous call, created by the thread that waits. Handing a task over is a lock-free enqueue and
 * one unpark of that thread; the waiter parks only while its queue is empty. If the waiter gives up (its call
 * ended or it was interrupted), tasks that arrive later go to the fallback executor, so that no response buffer is
 * left unreleased in a queue nobody drains.
 */
public final class ThreadlessExecutor implements Executor {
    private final Queue<Runnable> tasks = new ConcurrentLinkedQueue<>();
    private final Thread waiter = Thread.currentThread();
    private final Executor fallback;
    private volatile boolean abandoned;

    public ThreadlessExecutor(Executor fallback) {
        this.fallback = fallback;
    }

    @Override
    public void execute(Runnable task) {
        tasks.add(task);
        // enqueue, then look: the waiter sets the flag, then drains, so one of the two always sees the task
        if (abandoned) {
            drainToFallback();
        } else {
            LockSupport.unpark(waiter);
        }
    }

    /**
     * Runs handed-over tasks on this thread until {@code future} is done. Completions normally arrive here as
     * tasks, but a future can also be completed on another thread (a callback chained on an inner future that was
     * already complete runs where it is registered): its completion, wherever it happens, wakes this thread too.
     *
     * @throws IllegalStateException if called from another thread than the one that created this executor
     */
    public void runUntilDone(CompletableFuture<?> future) throws InterruptedException {
        if (Thread.currentThread() != waiter) {
            throw new IllegalStateException("runUntilDone must be called by the thread that created the executor ("
                    + waiter.getName() + "), not by " + Thread.currentThread().getName());
        }
        future.whenComplete((value, error) -> {
            if (Thread.currentThread() != waiter) { // completed here: the loop sees it without a wake-up
                LockSupport.unpark(waiter);
            }
        });
        try {
            while (!future.isDone()) {
                Runnable task = tasks.poll();
                if (task != null) {
                    task.run();
                } else {
                    LockSupport.park(this);
                    if (Thread.interrupted()) {
                        throw new InterruptedException("interrupted while waiting for a synchronous call");
                    }
                }
            }
        } finally {
            // nobody drains this queue once the caller has its result: completions that still come (a losing
            // fork's answer, a failback retry, a late timeout) go to the fallback executor, never into a dead queue
            abandoned = true;
            drainToFallback();
        }
    }

    private void drainToFallback() {
        Runnable task;
        while ((task = tasks.poll()) != null) {
            fallback.execute(task);
        }
    }
}
