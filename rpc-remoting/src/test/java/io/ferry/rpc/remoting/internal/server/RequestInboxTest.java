package io.ferry.rpc.remoting.internal.server;

import io.netty.channel.DefaultEventLoop;
import io.netty.channel.EventLoop;
import io.netty.channel.embedded.EmbeddedChannel;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A connection's requests reach the business pool through a few drainers that run them one after another: a burst
 * costs one pool task, not one per request; yet a request stuck behind a blocked one gets a thread of its own once
 * nothing has moved for the stall time, and a connection whose requests are slow gets a task per request.
 */
class RequestInboxTest {
    private final EmbeddedChannel channel = new EmbeddedChannel();
    private final List<Runnable> poolTasks = new ArrayList<>();
    private final List<String> ran = new ArrayList<>();
    private final List<String> refused = new ArrayList<>();

    RequestInboxTest() {
        channel.freezeTime();
    }

    @AfterEach
    void close() {
        channel.finishAndReleaseAll();
    }

    private RequestInbox<Request> inbox(int parallelism) {
        return new RequestInbox<>(poolTasks::add, channel.eventLoop(), parallelism, r -> refused.add(r.name));
    }

    /** A request that records that it ran, taking {@code micros} of the fake clock. */
    private class Request implements Runnable {
        final String name;
        final long micros;

        Request(String name, long micros) {
            this.name = name;
            this.micros = micros;
        }

        @Override
        public void run() {
            channel.advanceTimeBy(micros, TimeUnit.MICROSECONDS);
            ran.add(name);
        }
    }

    private Request quick(String name) {
        return new Request(name, 5);
    }

    @Test
    void aBurstOfQuickRequestsCostsOnePoolTask() {
        RequestInbox<Request> inbox = inbox(1);
        inbox.add(quick("a"));
        inbox.add(quick("b"));
        inbox.add(quick("c"));

        assertEquals(1, poolTasks.size());
        poolTasks.get(0).run();
        assertEquals(List.of("a", "b", "c"), ran, "one drainer runs them in order");
        assertEquals(0, inbox.waiting());
    }

    /** Runs {@code count} requests one at a time, so that the inbox learns how long they take. */
    private void learn(RequestInbox<Request> inbox, int count, long micros) {
        for (int i = 0; i < count; i++) {
            inbox.add(new Request("learn" + i, micros));
            poolTasks.get(poolTasks.size() - 1).run();
        }
        poolTasks.clear();
        ran.clear();
    }

    @Test
    void aBurstOfQuickRequestsStaysWithOneDrainerUntilItsBacklogPassesTheSpreadTime() {
        RequestInbox<Request> inbox = inbox(2);
        learn(inbox, 40, 5);
        for (int i = 0; i < 10; i++) {
            inbox.add(quick("r" + i));
        }
        assertEquals(1, poolTasks.size(), "10 requests of 5 us: one warm thread, not a second woken for them");

        for (int i = 10; i < 30; i++) {
            inbox.add(quick("r" + i));
        }
        assertEquals(2, poolTasks.size(), "30 of them are over 100 us of work: a second drainer");
    }

    @Test
    void drainersStopAtTheParallelismWhileTheWorkWaitingIsUnderTwoMillisecondsEach() {
        RequestInbox<Request> inbox = inbox(2);
        learn(inbox, 40, 150);
        for (int i = 0; i < 5; i++) {
            inbox.add(new Request("r" + i, 150));
        }
        assertEquals(2, poolTasks.size());
    }

    @Test
    void beforeAnyRequestHasRunABurstGetsAsManyDrainersAsTheParallelism() {
        RequestInbox<Request> inbox = inbox(2);
        for (int i = 0; i < 5; i++) {
            inbox.add(quick("r" + i));
        }
        assertEquals(2, poolTasks.size(), "how long they take is not known yet");
    }

    @Test
    void aBurstThatLookedQuickButRunsSlowGetsAnotherDrainerAtTheNextCheck() {
        RequestInbox<Request> inbox = inbox(2);
        learn(inbox, 40, 5);
        inbox.add(new Request("first", 300));
        inbox.add(new Request("second", 250) {
            @Override
            public void run() {
                super.run(); // 550 us since the burst came: its check is due, the drainer took this 250 us ago
                channel.runScheduledPendingTasks();
            }
        });
        for (int i = 0; i < 8; i++) {
            inbox.add(quick("r" + i));
        }
        assertEquals(1, poolTasks.size(), "10 requests at 5 us each: one drainer");

        poolTasks.get(0).run();

        assertEquals(2, poolTasks.size(), "with the first at 300 us the average rose: 8 waiting are worth a second");
    }

    @Test
    void aBacklogOverTwoMillisecondsGetsAnotherDrainerPastTheParallelism() {
        RequestInbox<Request> inbox = inbox(1);
        learn(inbox, 40, 150); // each blocks a while, under the time that would give each a thread of its own
        for (int i = 0; i < 13; i++) {
            inbox.add(new Request("r" + i, 150));
        }
        assertEquals(1, poolTasks.size(), "13 x 150 us waiting: within what one drainer may hold");

        inbox.add(new Request("r13", 150));
        assertEquals(2, poolTasks.size(), "14 x 150 us is over 2 ms: they must not all wait for one thread");
    }

    @Test
    void aRequestThatArrivesOnceTheDrainersHaveEndedStartsANewOne() {
        RequestInbox<Request> inbox = inbox(1);
        inbox.add(quick("a"));
        poolTasks.get(0).run();
        inbox.add(quick("b"));

        assertEquals(2, poolTasks.size());
        poolTasks.get(1).run();
        assertEquals(List.of("a", "b"), ran);
    }

    @Test
    void requestsBehindABlockedOneGetThreadsOfTheirOwnAfterTheStallTime() throws Exception {
        RequestInbox<Runnable> inbox = new RequestInbox<>(poolTasks::add, channel.eventLoop(), 1, r -> { });
        CountDownLatch blocked = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        inbox.add(() -> {
            blocked.countDown();
            await(release); // a method waiting on something slow
        });
        Thread drainer = new Thread(poolTasks.get(0));
        drainer.start();
        assertTrue(blocked.await(10, TimeUnit.SECONDS));
        try {
            inbox.add(() -> ran.add("b"));
            inbox.add(() -> ran.add("c"));
            channel.advanceTimeBy(RequestInbox.STALL_NANOS - 1, TimeUnit.NANOSECONDS);
            channel.runScheduledPendingTasks();
            assertEquals(1, poolTasks.size(), "within the stall time they wait for the drainer");

            channel.advanceTimeBy(2, TimeUnit.NANOSECONDS);
            channel.runScheduledPendingTasks();

            assertEquals(3, poolTasks.size(), "then each waiting request gets a pool task");
            poolTasks.get(1).run();
            poolTasks.get(2).run();
            assertEquals(List.of("b", "c"), ran, "run while the first is still blocked");
        } finally {
            release.countDown();
            drainer.join(10_000);
        }
    }

    @Test
    void aPoolTooBusyToStartTheDrainersGetsNoMoreThanOnePerWaitingRequest() {
        RequestInbox<Request> inbox = inbox(1);
        inbox.add(quick("a"));
        inbox.add(quick("b"));
        inbox.add(quick("c"));

        for (int check = 0; check < 5; check++) {
            channel.advanceTimeBy(RequestInbox.STALL_NANOS + 1, TimeUnit.NANOSECONDS);
            channel.runScheduledPendingTasks();
        }

        assertEquals(3, poolTasks.size(), "one drainer per waiting request, however often the check runs");
        poolTasks.forEach(Runnable::run);
        assertEquals(List.of("a", "b", "c"), ran);
    }

    @Test
    void aConnectionWhoseRequestsAreSlowGetsAPoolTaskPerRequest() {
        RequestInbox<Request> inbox = inbox(1);
        for (int i = 0; i < 3; i++) {
            inbox.add(new Request("slow" + i, 1_000));
            poolTasks.get(poolTasks.size() - 1).run();
        }
        poolTasks.clear();

        inbox.add(quick("a"));
        inbox.add(quick("b"));

        assertEquals(2, poolTasks.size());
    }

    @Test
    void aPoolThatIsShutDownHasEveryWaitingRequestRefused() {
        RequestInbox<Request> inbox = new RequestInbox<>(task -> {
            throw new RejectedExecutionException("shut down");
        }, channel.eventLoop(), 1, r -> refused.add(r.name));

        inbox.add(quick("a"));

        assertEquals(List.of("a"), refused);
        assertEquals(List.of(), ran);
        assertEquals(0, inbox.waiting());
    }

    @Test
    void noRequestIsLeftBehindWhileDrainersEndAsRequestsArrive() throws Exception {
        int requests = 20_000;
        EventLoop ioThread = new DefaultEventLoop();
        ExecutorService pool = Executors.newFixedThreadPool(2);
        CountDownLatch allRan = new CountDownLatch(requests);
        try {
            RequestInbox<Runnable> inbox = new RequestInbox<>(pool, ioThread, 2, r -> { });
            for (int i = 0; i < requests; i++) {
                ioThread.execute(() -> inbox.add(allRan::countDown));
            }
            assertTrue(allRan.await(30, TimeUnit.SECONDS), allRan.getCount() + " requests never ran");
        } finally {
            pool.shutdownNow();
            ioThread.shutdownGracefully(0, 0, TimeUnit.SECONDS);
        }
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
