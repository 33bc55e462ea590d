package io.ferry.rpc.config.internal;

import org.junit.jupiter.api.Test;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

class ThreadlessExecutorTest {
    /** Waits (bounded) until {@code thread} blocks, without sleeping. */
    private static void awaitBlocked(Thread thread) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (thread.getState() != Thread.State.WAITING && System.nanoTime() < deadline) {
            Thread.onSpinWait();
        }
        assertEquals(Thread.State.WAITING, thread.getState());
    }

    /** A thread named "waiter" running tasks until {@code future} is done, already blocked on an empty queue. */
    private static Thread waiter(ThreadlessExecutor executor, CompletableFuture<?> future) {
        Thread waiter = new Thread(() -> {
            try {
                executor.runUntilDone(future);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "waiter");
        waiter.start();
        awaitBlocked(waiter);
        return waiter;
    }

    @Test
    void runsHandedOverTasksOnTheWaitingThread() throws Exception {
        ThreadlessExecutor executor = new ThreadlessExecutor(Runnable::run);
        CompletableFuture<String> future = new CompletableFuture<>();
        AtomicReference<String> ranOn = new AtomicReference<>();
        Thread waiter = waiter(executor, future);
        executor.execute(() -> {
            ranOn.set(Thread.currentThread().getName());
            future.complete("done");
        });
        waiter.join(5000);
        assertFalse(waiter.isAlive());
        assertEquals("waiter", ranOn.get());
    }

    /**
     * The hang this pins: a future completed on another thread (a callback chained on an already complete inner
     * future runs where it is registered), while the waiter sleeps on an empty queue.
     */
    @Test
    void aFutureCompletedElsewhereStillWakesTheWaiter() throws Exception {
        ThreadlessExecutor executor = new ThreadlessExecutor(Runnable::run);
        CompletableFuture<String> future = new CompletableFuture<>();
        Thread waiter = waiter(executor, future);
        future.complete("completed on the test thread, not through the executor");
        waiter.join(5000);
        assertFalse(waiter.isAlive(), "the waiter woke up");
    }

    /** A losing fork's answer, a failback retry: what arrives after the caller has its result must still run. */
    @Test
    void tasksArrivingAfterTheCallEndedRunOnTheFallback() throws Exception {
        java.util.List<Runnable> fallback = new java.util.concurrent.CopyOnWriteArrayList<>();
        ThreadlessExecutor executor = new ThreadlessExecutor(fallback::add);
        CompletableFuture<String> future = CompletableFuture.completedFuture("first answer");
        executor.runUntilDone(future);
        Runnable late = () -> { };
        executor.execute(late);
        assertEquals(java.util.List.of(late), fallback, "handed to the fallback, not left in a dead queue");
    }
}
