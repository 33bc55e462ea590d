package io.ferry.rpc.config.internal;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

class ThreadlessExecutorTest {
    /** Waits (at most 5 s) until {@code thread} blocks. */
    private static void awaitBlocked(Thread thread) {
        await(thread.getName() + " waiting").atMost(Duration.ofSeconds(5))
                .until(thread::getState, state -> state == Thread.State.WAITING);
    }

    /** A thread named "waiter" that created its executor and runs its tasks until {@code future} is done. */
    private record Waiter(Thread thread, ThreadlessExecutor executor, AtomicReference<Throwable> thrown) {
        static Waiter blockedOn(CompletableFuture<?> future, Executor fallback) throws Exception {
            CompletableFuture<ThreadlessExecutor> created = new CompletableFuture<>();
            AtomicReference<Throwable> thrown = new AtomicReference<>();
            Thread thread = new Thread(() -> {
                ThreadlessExecutor executor = new ThreadlessExecutor(fallback);
                created.complete(executor);
                try {
                    executor.runUntilDone(future);
                } catch (InterruptedException e) {
                    thrown.set(e);
                }
            }, "waiter");
            thread.start();
            ThreadlessExecutor executor = created.get(5, TimeUnit.SECONDS);
            awaitBlocked(thread);
            return new Waiter(thread, executor, thrown);
        }

        void awaitEnd() throws InterruptedException {
            thread.join(5000);
            assertFalse(thread.isAlive(), "the waiter stopped waiting");
        }
    }

    @Test
    void runsHandedOverTasksOnTheWaitingThread() throws Exception {
        CompletableFuture<String> future = new CompletableFuture<>();
        AtomicReference<String> ranOn = new AtomicReference<>();
        Waiter waiter = Waiter.blockedOn(future, Runnable::run);
        waiter.executor().execute(() -> {
            ranOn.set(Thread.currentThread().getName());
            future.complete("done");
        });
        waiter.awaitEnd();
        assertEquals("waiter", ranOn.get());
    }

    /**
     * The hang this pins: a future completed on another thread (a callback chained on an already complete inner
     * future runs where it is registered), while the waiter sleeps on an empty queue.
     */
    @Test
    void aFutureCompletedElsewhereStillWakesTheWaiter() throws Exception {
        CompletableFuture<String> future = new CompletableFuture<>();
        Waiter waiter = Waiter.blockedOn(future, Runnable::run);
        future.complete("completed on the test thread, not through the executor");
        waiter.awaitEnd();
    }

    /** A losing fork's answer, a failback retry: what arrives after the caller has its result must still run. */
    @Test
    void tasksArrivingAfterTheCallEndedRunOnTheFallback() throws Exception {
        List<Runnable> fallback = new CopyOnWriteArrayList<>();
        ThreadlessExecutor executor = new ThreadlessExecutor(fallback::add);
        CompletableFuture<String> future = CompletableFuture.completedFuture("first answer");
        executor.runUntilDone(future);
        Runnable late = () -> { };
        executor.execute(late);
        assertEquals(List.of(late), fallback, "handed to the fallback, not left in a dead queue");
    }

    /** The IO thread may answer before the caller starts waiting: the answer waits in the queue for it. */
    @Test
    void aTaskHandedOverBeforeTheWaitRunsOnTheWaiter() throws Exception {
        ThreadlessExecutor executor = new ThreadlessExecutor(task -> {
            throw new AssertionError("not the fallback");
        });
        CompletableFuture<String> future = new CompletableFuture<>();
        AtomicReference<Thread> ranOn = new AtomicReference<>();
        executor.execute(() -> {
            ranOn.set(Thread.currentThread());
            future.complete("early answer");
        });
        executor.runUntilDone(future);
        assertEquals(Thread.currentThread(), ranOn.get());
    }

    @Test
    void anInterruptedWaiterStopsWaitingAndLaterTasksRunOnTheFallback() throws Exception {
        List<Runnable> fallback = new CopyOnWriteArrayList<>();
        Waiter waiter = Waiter.blockedOn(new CompletableFuture<>(), fallback::add);
        waiter.thread().interrupt();
        waiter.awaitEnd();
        assertInstanceOf(InterruptedException.class, waiter.thrown().get());
        Runnable late = () -> { };
        waiter.executor().execute(late);
        assertEquals(List.of(late), fallback);
    }

    @Test
    void onlyTheCreatingThreadMayWait() {
        AtomicReference<ThreadlessExecutor> executor = new AtomicReference<>();
        Thread other = new Thread(() -> executor.set(new ThreadlessExecutor(Runnable::run)));
        other.start();
        assertDoesNotThrow(() -> other.join(5000));
        assertThrows(IllegalStateException.class, () -> executor.get().runUntilDone(new CompletableFuture<>()));
    }
}
