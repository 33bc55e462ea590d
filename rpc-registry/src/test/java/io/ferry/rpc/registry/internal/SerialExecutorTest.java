package io.ferry.rpc.registry.internal;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SerialExecutorTest {
    private final ScheduledExecutorService pool = Executors.newScheduledThreadPool(4);

    @AfterEach
    void stop() {
        pool.shutdownNow();
    }

    @Test
    void tasksRunOneAtATimeInTheOrderGivenOnAPoolOfSeveralThreads() throws Exception {
        SerialExecutor serial = new SerialExecutor(pool);
        List<Integer> seen = new ArrayList<>(); // no lock: tasks never overlap, and each sees the one before
        int[] running = {0};
        int[] overlaps = {0};
        CompletableFuture<Void> last = new CompletableFuture<>();
        for (int i = 0; i < 1000; i++) {
            int n = i;
            serial.execute(() -> {
                if (++running[0] > 1) {
                    overlaps[0]++;
                }
                seen.add(n);
                running[0]--;
                if (n == 999) {
                    last.complete(null);
                }
            });
        }
        last.get(10, TimeUnit.SECONDS);
        assertEquals(0, overlaps[0]);
        assertEquals(IntStream.range(0, 1000).boxed().toList(), seen);
    }

    @Test
    void aLongQueueTakesTurnsWithTheSchedulersOtherUsers() throws Exception {
        ScheduledExecutorService one = Executors.newSingleThreadScheduledExecutor();
        try {
            SerialExecutor serial = new SerialExecutor(one);
            List<String> order = new ArrayList<>();
            CountDownLatch holding = new CountDownLatch(1);
            CountDownLatch gate = new CountDownLatch(1);
            one.execute(() -> { // holds the thread (after the executor's first step) while both queues fill
                holding.countDown();
                await(gate);
            });
            holding.await(10, TimeUnit.SECONDS);
            serial.execute(() -> order.add("registry 1"));
            serial.execute(() -> order.add("registry 2"));
            one.execute(() -> order.add("other"));
            CompletableFuture<Void> done = new CompletableFuture<>();
            serial.execute(() -> done.complete(null));
            gate.countDown();
            done.get(10, TimeUnit.SECONDS);
            assertEquals(List.of("registry 1", "other", "registry 2"), order,
                    "one registry task per turn: the other user's task is not held behind the whole queue");
        } finally {
            one.shutdownNow();
        }
    }

    @Test
    void aTaskThatThrowsDoesNotStopTheOnesBehindIt() throws Exception {
        SerialExecutor serial = new SerialExecutor(pool);
        CompletableFuture<Void> after = new CompletableFuture<>();
        serial.execute(() -> {
            throw new IllegalStateException("boom (expected by the test)");
        });
        serial.execute(() -> after.complete(null));
        after.get(10, TimeUnit.SECONDS);
    }

    @Test
    void closeDropsQueuedWorkAndLeavesTheSchedulerToItsOwner() throws Exception {
        ScheduledExecutorService one = Executors.newSingleThreadScheduledExecutor();
        try {
            SerialExecutor serial = new SerialExecutor(one);
            CountDownLatch gate = new CountDownLatch(1);
            one.execute(() -> await(gate));
            List<String> ran = new ArrayList<>();
            serial.execute(() -> ran.add("queued before close"));
            serial.close();
            serial.execute(() -> ran.add("given after close"));
            assertFalse(serial.schedule(() -> ran.add("scheduled after close"), 1, TimeUnit.MILLISECONDS));
            gate.countDown();
            assertEquals("still running", one.submit(() -> "still running").get(10, TimeUnit.SECONDS));
            assertEquals(List.of(), ran);
            assertFalse(one.isShutdown());
        } finally {
            one.shutdownNow();
        }
    }

    @Test
    void knowsTheThreadOfAOneThreadScheduler() throws Exception {
        ScheduledExecutorService one = Executors.newSingleThreadScheduledExecutor();
        try {
            SerialExecutor serial = new SerialExecutor(one);
            assertFalse(serial.isSchedulerThread());
            // learnt at construction (its first step runs before this task), so that a task of another user of
            // the thread is recognised too
            assertTrue(one.submit(serial::isSchedulerThread).get(10, TimeUnit.SECONDS));
        } finally {
            one.shutdownNow();
        }
    }

    private static void await(CountDownLatch gate) {
        try {
            gate.await(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
