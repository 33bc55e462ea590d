package io.ferry.rpc.config.internal;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.LinkedBlockingQueue;

/**
 * Lets a thread blocked in a synchronous call run its own call's completion: the IO thread hands over the response
 * and the waiting thread decodes it, with no hop through a pool and no decoding on the IO thread.
 *
 * <p>One per synchronous call. If the waiter gives up (interrupted), tasks that arrive later go to the fallback
 * executor, so that no response buffer is left unreleased in a queue nobody drains.
 */
public final class ThreadlessExecutor implements Executor {
    private static final Runnable WAKE_UP = () -> { };

    private final LinkedBlockingQueue<Runnable> queue = new LinkedBlockingQueue<>();
    private final Executor fallback;
    private boolean abandoned;

    public ThreadlessExecutor(Executor fallback) {
        this.fallback = fallback;
    }

    @Override
    public void execute(Runnable task) {
        synchronized (this) {
            if (!abandoned) {
                queue.add(task);
                return;
            }
        }
        fallback.execute(task);
    }

    /**
     * Runs handed-over tasks on this thread until {@code future} is done. Completions normally arrive here as
     * tasks, but a future can also be completed on another thread (a callback chained on an inner future that was
     * already complete runs where it is registered): its completion, wherever it happens, wakes this thread too.
     */
    public void runUntilDone(CompletableFuture<?> future) throws InterruptedException {
        future.whenComplete((value, error) -> queue.add(WAKE_UP));
        try {
            while (!future.isDone()) {
                queue.take().run();
            }
        } finally {
            // nobody drains this queue once the caller has its result: completions that still come (a losing
            // fork's answer, a failback retry, a late timeout) go to the fallback executor, never into a dead queue
            abandon();
        }
    }

    private void abandon() {
        synchronized (this) {
            abandoned = true;
        }
        Runnable task;
        while ((task = queue.poll()) != null) {
            if (task != WAKE_UP) {
                fallback.execute(task);
            }
        }
    }
}
