package io.ferry.rpc.remoting.internal.server;

import io.netty.util.concurrent.DefaultThreadFactory;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Which thread a task goes to, and that no task is left behind while threads come and go. */
class WarmThreadQueueTest {
    private final WarmThreadQueue queue = new WarmThreadQueue();

    /** A thread that takes one task from the queue; returns once it waits. */
    private Thread taker(AtomicReference<Runnable> took) {
        int before = queue.waiting();
        Thread thread = new Thread(() -> {
            try {
                took.set(queue.take());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        thread.start();
        await().atMost(Duration.ofSeconds(10)).until(() -> queue.waiting() == before + 1);
        return thread;
    }

    @Test
    void eachTaskGoesToTheThreadThatBeganWaitingLast() throws Exception {
        AtomicReference<Runnable> first = new AtomicReference<>();
        AtomicReference<Runnable> second = new AtomicReference<>();
        AtomicReference<Runnable> third = new AtomicReference<>();
        Thread oldest = taker(first);
        Thread middle = taker(second);
        Thread newest = taker(third);
        Runnable a = () -> { };
        Runnable b = () -> { };
        queue.offer(a);
        newest.join(10_000);
        assertSame(a, third.get());
        queue.offer(b);
        middle.join(10_000);
        assertSame(b, second.get());
        assertNull(first.get(), "the longest waiting thread is still waiting");
        oldest.interrupt();
        oldest.join(10_000);
        assertEquals(0, queue.waiting(), "a thread that stops waiting leaves the stack");
    }

    @Test
    void tasksWaitInOrderWhileNoThreadDoes() {
        Runnable a = () -> { };
        Runnable b = () -> { };
        queue.offer(a);
        queue.offer(b);
        assertEquals(2, queue.size());
        assertSame(a, queue.poll());
        assertSame(b, queue.poll());
        assertNull(queue.poll());
    }

    @Test
    void aWaitThatTimesOutLeavesTheStack() throws Exception {
        assertNull(queue.poll(20, TimeUnit.MILLISECONDS));
        assertEquals(0, queue.waiting());
        Runnable a = () -> { };
        queue.offer(a);
        assertSame(a, queue.poll(10, TimeUnit.SECONDS), "queued, not handed to the thread that left");
    }

    @Test
    void anIdlePoolRunsOneTaskAfterAnotherOnTheSameThread() throws Exception {
        ThreadPoolExecutor pool = new ThreadPoolExecutor(4, 4, 0, TimeUnit.MILLISECONDS, queue,
                new DefaultThreadFactory("warm-test", true));
        try {
            pool.prestartAllCoreThreads();
            Set<String> ranOn = ConcurrentHashMap.newKeySet();
            for (int i = 0; i < 20; i++) {
                await().atMost(Duration.ofSeconds(10)).until(() -> queue.waiting() == 4);
                CountDownLatch ran = new CountDownLatch(1);
                pool.execute(() -> {
                    ranOn.add(Thread.currentThread().getName());
                    ran.countDown();
                });
                assertTrue(ran.await(10, TimeUnit.SECONDS));
            }
            assertEquals(1, ranOn.size(), "oldest first would have used all four: " + ranOn);
        } finally {
            pool.shutdownNow();
        }
    }

    /**
     * Many submitters racing threads that go back to waiting all the time: every task runs, the last ones included
     * (threads that wait without end do not look again by themselves, so a task left queued would stay there).
     */
    @Test
    void noTaskIsLeftBehindWhileThreadsComeBackToWait() throws Exception {
        ThreadPoolExecutor pool = new ThreadPoolExecutor(3, 3, 0, TimeUnit.MILLISECONDS, queue,
                new DefaultThreadFactory("warm-test", true));
        runsEveryTask(pool);
    }

    /** The same with threads that stop waiting after 1 ms and are started again. */
    @Test
    void noTaskIsLeftBehindWhileThreadsComeAndGo() throws Exception {
        ThreadPoolExecutor pool = new ThreadPoolExecutor(3, 3, 1, TimeUnit.MILLISECONDS, queue,
                new DefaultThreadFactory("warm-test", true));
        pool.allowCoreThreadTimeOut(true);
        runsEveryTask(pool);
    }

    private static void runsEveryTask(ThreadPoolExecutor pool) throws InterruptedException {
        int submitters = 4;
        int each = 20_000;
        CountDownLatch ran = new CountDownLatch(submitters * each);
        List<Thread> threads = new ArrayList<>();
        try {
            for (int s = 0; s < submitters; s++) {
                Thread submitter = new Thread(() -> {
                    for (int i = 0; i < each; i++) {
                        pool.execute(ran::countDown);
                    }
                });
                threads.add(submitter);
                submitter.start();
            }
            assertTrue(ran.await(60, TimeUnit.SECONDS), ran.getCount() + " tasks never ran");
        } finally {
            for (Thread thread : threads) {
                thread.join(10_000);
            }
            pool.shutdownNow();
        }
    }
}
