package io.ferry.rpc.remoting.internal.server;

import io.ferry.rpc.remoting.PoolOptions;
import io.ferry.rpc.remoting.ThreadPoolKind;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** How each kind of pool grows, and that admission alone decides refusals. */
class BusinessPoolTest {
    /** Admits and starts {@code count} tasks that block until {@code release}; returns when all are running. */
    private static List<Admission.Ticket> occupy(BusinessPool pool, int count, CountDownLatch release)
            throws InterruptedException {
        CountDownLatch running = new CountDownLatch(count);
        List<Admission.Ticket> tickets = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            Admission.Ticket ticket = pool.tryAdmit();
            tickets.add(ticket);
            pool.execute(() -> {
                running.countDown();
                try {
                    release.await(10, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                } finally {
                    ticket.run();
                }
            });
        }
        assertTrue(running.await(10, TimeUnit.SECONDS), "all " + count + " run at once");
        return tickets;
    }

    @Test
    void aCachedPoolMakesThreadsBeforeItQueuesAndRefusesOnlyPastThreadsPlusQueues() throws Exception {
        BusinessPool pool = new BusinessPool(new PoolOptions(ThreadPoolKind.CACHED, 4, 2, 0, Duration.ofSeconds(60)),
                "test-cached");
        CountDownLatch release = new CountDownLatch(1);
        try {
            occupy(pool, 4, release); // with queues = 2, a plain executor would run 0 core threads and queue
            assertTrue(pool.describe().contains("threads: 4 of 4"), pool.describe());
            assertTrue(pool.tryAdmit() != null);
            assertTrue(pool.tryAdmit() != null);
            assertNull(pool.tryAdmit(), "4 running + 2 waiting: the seventh is refused");
        } finally {
            release.countDown();
            pool.shutdown();
        }
    }

    /**
     * Idle threads are woken newest first, so a trickle of work keeps one thread busy and lets the others stop after
     * their idle time. Woken oldest first, every thread would run a task every 20 ms, and none would ever stop.
     */
    @Test
    void aCachedPoolShrinksWhileATrickleOfWorkGoesOn() throws Exception {
        BusinessPool pool = new BusinessPool(new PoolOptions(ThreadPoolKind.CACHED, 4, 0, 0, Duration.ofMillis(200)),
                "test-shrink");
        try {
            CountDownLatch release = new CountDownLatch(1);
            occupy(pool, 4, release);
            release.countDown();
            await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(5)).until(() -> {
                CountDownLatch ran = new CountDownLatch(1);
                pool.execute(ran::countDown);
                return ran.await(10, TimeUnit.SECONDS) && pool.describe().contains("threads: 1 of 4");
            });
        } finally {
            pool.shutdown();
        }
    }

    @Test
    void aLimitedPoolGrowsOnDemandFromItsCoreThreads() throws Exception {
        BusinessPool pool = new BusinessPool(new PoolOptions(ThreadPoolKind.LIMITED, 3, 0, 1, Duration.ofSeconds(60)),
                "test-limited");
        CountDownLatch release = new CountDownLatch(1);
        try {
            occupy(pool, 1, release);
            assertTrue(pool.describe().contains("threads: 1 of 3"), pool.describe());
            occupy(pool, 2, release);
            assertTrue(pool.describe().contains("threads: 3 of 3"), pool.describe());
        } finally {
            release.countDown();
            pool.shutdown();
        }
    }

    @Test
    void aFixedPoolQueuesBehindItsThreads() throws Exception {
        BusinessPool pool = new BusinessPool(PoolOptions.fixed(2, 1), "test-fixed");
        CountDownLatch release = new CountDownLatch(1);
        try {
            occupy(pool, 2, release);
            assertTrue(pool.tryAdmit() != null, "one waiting place");
            assertNull(pool.tryAdmit());
            assertEquals(true, pool.describe().contains("3 requests running or queued"), pool.describe());
        } finally {
            release.countDown();
            pool.shutdown();
        }
    }
}
