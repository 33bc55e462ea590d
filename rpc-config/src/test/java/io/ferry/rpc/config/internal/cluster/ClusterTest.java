package io.ferry.rpc.config.internal.cluster;

import io.ferry.rpc.Deadline;
import io.ferry.rpc.Invocation;
import io.ferry.rpc.Invoker;
import io.ferry.rpc.Result;
import io.ferry.rpc.RpcException;
import io.ferry.rpc.RpcStatus;
import io.ferry.rpc.cluster.Directory;
import io.ferry.rpc.cluster.Endpoint;
import io.ferry.rpc.config.RetryBudget;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The balancer and the failover strategy against scripted providers, on a fake clock. No network. */
class ClusterTest {
    private final AtomicLong now = new AtomicLong();

    private static CompletableFuture<Result> answer(String value) {
        return CompletableFuture.completedFuture(Result.of(value));
    }

    private static CompletableFuture<Result> notRun(String why) {
        return CompletableFuture.failedFuture(RpcException.notExecuted(RpcStatus.THREADPOOL_EXHAUSTED, why, null));
    }

    private static Directory of(Endpoint... endpoints) {
        List<Endpoint> list = List.of(endpoints);
        return new Directory() {
            @Override
            public List<Endpoint> endpoints() {
                return list;
            }

            @Override
            public String describe() {
                return "fake " + list.size();
            }
        };
    }

    private Invocation call(boolean oneway) {
        try {
            return new Invocation("svc.Who", "", "", Object.class.getMethod("toString"), new Object[0],
                    new HashMap<>(), Deadline.after(Duration.ofSeconds(1), now::get), oneway, Runnable::run);
        } catch (NoSuchMethodException e) {
            throw new AssertionError(e);
        }
    }

    private static Object value(CompletableFuture<Result> future) {
        return future.join().value();
    }

    private static RpcException failure(CompletableFuture<Result> future) {
        CompletionException e = assertThrows(CompletionException.class, future::join);
        return (RpcException) e.getCause();
    }

    @Test
    void randomHonoursWeights() {
        FakeEndpoint heavy = new FakeEndpoint("heavy", 300, i -> answer("h"));
        FakeEndpoint light = new FakeEndpoint("light", 100, i -> answer("l"));
        RandomBalancer balancer = new RandomBalancer();
        Map<String, Integer> picks = new HashMap<>();
        for (int i = 0; i < 40_000; i++) {
            picks.merge(balancer.select(List.of(heavy, light), call(false)).address(), 1, Integer::sum);
        }
        double share = picks.get("heavy") / 40_000.0;
        assertTrue(share > 0.72 && share < 0.78, "weight 3:1 gives about 75 %, got " + share);
    }

    @Test
    void aCallThatDidNotRunMovesToAnotherProviderAndStopsAtTheRetryLimit() {
        List<FakeEndpoint> full = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            full.add(new FakeEndpoint("p" + i, 100, inv -> notRun("pool full")));
        }
        Invoker cluster = new FailoverCluster(2).join(of(full.toArray(new Endpoint[0])), new RandomBalancer());
        RpcException e = failure(cluster.invoke(call(false)));
        assertTrue(e.isNotExecuted());
        assertEquals(3, full.stream().mapToInt(f -> f.calls).sum(), "one attempt and two retries, each elsewhere");
        assertTrue(full.stream().allMatch(f -> f.calls <= 1), "never the same provider twice");
        assertTrue(e.getMessage().contains("ran on none of the 3 provider(s) tried"), e.getMessage());
    }

    @Test
    void aCallThatMayHaveRunIsNeverRepeated() {
        FakeEndpoint timedOut = new FakeEndpoint("slow", 100, inv -> CompletableFuture.failedFuture(
                new RpcException(RpcStatus.TIMEOUT, "no answer")));
        FakeEndpoint fine = new FakeEndpoint("fine", 100, inv -> answer("ok"));
        fine.ready = false; // so the first pick is the slow one
        Invoker cluster = new FailoverCluster(2).join(of(timedOut, fine), new RandomBalancer());
        assertEquals(RpcStatus.TIMEOUT, failure(cluster.invoke(call(false))).status());
        assertEquals(0, fine.calls);
    }

    @Test
    void oneWayCallsAreNeverRetried() {
        FakeEndpoint full = new FakeEndpoint("full", 100, inv -> notRun("pool full"));
        FakeEndpoint other = new FakeEndpoint("other", 100, inv -> answer(null));
        other.ready = false;
        Invoker cluster = new FailoverCluster(2).join(of(full, other), new RandomBalancer());
        failure(cluster.invoke(call(true)));
        assertEquals(0, other.calls);
    }

    @Test
    void readyProvidersArePreferredAndTheDeadlineBoundsRetries() {
        FakeEndpoint down = new FakeEndpoint("down", 100, inv -> notRun("no connection"));
        down.ready = false;
        FakeEndpoint up = new FakeEndpoint("up", 100, inv -> answer("up"));
        Invoker cluster = new FailoverCluster(2).join(of(down, up), new RandomBalancer());
        for (int i = 0; i < 50; i++) {
            assertEquals("up", value(cluster.invoke(call(false))));
        }
        assertEquals(0, down.calls, "a ready provider is there: the one not connected is not tried");

        FakeEndpoint slowFull = new FakeEndpoint("slow-full", 100, inv -> {
            now.addAndGet(Duration.ofMillis(600).toNanos()); // each refusal takes 600 ms of the 1 s budget
            return notRun("pool full");
        });
        FakeEndpoint another = new FakeEndpoint("another", 100, inv -> {
            now.addAndGet(Duration.ofMillis(600).toNanos());
            return notRun("pool full");
        });
        FakeEndpoint third = new FakeEndpoint("third", 100, inv -> answer("too late"));
        third.ready = false;
        RpcException e = failure(new FailoverCluster(5).join(of(slowFull, another, third), new RandomBalancer())
                .invoke(call(false)));
        assertEquals(0, third.calls, "no retry once the call's one deadline has passed");
        assertTrue(e.getMessage().contains("within its timeout of 1000 ms"), e.getMessage());
    }

    @Test
    void noProviderAtAllSaysSo() {
        RpcException e = failure(new FailoverCluster(2).join(of(), new RandomBalancer()).invoke(call(false)));
        assertSame(RpcStatus.NO_PROVIDER, e.status());
        assertTrue(e.isNotExecuted());
    }

    @Test
    void theRetryBudgetCapsRetriesWhenTheWholeClusterRefuses() {
        List<FakeEndpoint> full = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            full.add(new FakeEndpoint("p" + i, 100, inv -> notRun("pool full")));
        }
        // no floor, 10 % of calls: 1,000 calls may make about 100 retries, not 2,000
        Invoker cluster = new FailoverCluster(2, new RetryBudget(0, 10), now::get, m -> false)
                .join(of(full.toArray(new Endpoint[0])), new RandomBalancer());
        for (int i = 0; i < 1000; i++) {
            failure(cluster.invoke(call(false)));
        }
        int attempts = full.stream().mapToInt(f -> f.calls).sum();
        assertTrue(attempts >= 1000 + 95 && attempts <= 1000 + 100, "retries: " + (attempts - 1000));

        now.addAndGet(Duration.ofSeconds(11).toNanos()); // the window has moved on: the budget refills with calls
        FakeEndpoint fine = FakeEndpoint.answering("fine", 100);
        fine.ready = false;
        FakeEndpoint refusing = new FakeEndpoint("refusing", 100, inv -> notRun("pool full"));
        Invoker fresh = new FailoverCluster(2, new RetryBudget(10, 10), now::get, m -> false)
                .join(of(refusing, fine), new RandomBalancer());
        assertEquals("fine", value(fresh.invoke(call(false))), "the floor allows a retry to a quiet reference");
    }

    @Test
    void anIdempotentMethodIsRetriedAfterALostConnection() {
        FakeEndpoint lost = new FakeEndpoint("lost", 100, inv -> CompletableFuture.failedFuture(
                new RpcException(RpcStatus.NETWORK, "connection closed")));
        FakeEndpoint fine = FakeEndpoint.answering("fine", 100);
        fine.ready = false;
        Invoker idempotent = new FailoverCluster(2, RetryBudget.defaults(), now::get, m -> true)
                .join(of(lost, fine), new RandomBalancer());
        assertEquals("fine", value(idempotent.invoke(call(false))));
        Invoker notIdempotent = new FailoverCluster(2, RetryBudget.defaults(), now::get, m -> false)
                .join(of(lost, fine), new RandomBalancer());
        assertEquals(RpcStatus.NETWORK, failure(notIdempotent.invoke(call(false))).status());
        assertEquals(1, fine.calls, "it may have run: repeated only for the idempotent method");
    }

    @Test
    void failfastMakesOneAttempt() {
        FakeEndpoint full = new FakeEndpoint("full", 100, inv -> notRun("pool full"));
        FakeEndpoint other = FakeEndpoint.answering("other", 100);
        other.ready = false;
        assertEquals(RpcStatus.THREADPOOL_EXHAUSTED,
                failure(new FailfastCluster().join(of(full, other), new RandomBalancer()).invoke(call(false)))
                        .status());
        assertEquals(0, other.calls);
    }

    @Test
    void failsafeTurnsAFailureIntoAnEmptyResult() {
        FakeEndpoint broken = new FakeEndpoint("broken", 100, inv -> CompletableFuture.failedFuture(
                new RpcException(RpcStatus.TIMEOUT, "no answer")));
        Result result = new FailsafeCluster().join(of(broken), new RandomBalancer()).invoke(call(false)).join();
        assertEquals(null, result.value());
    }

    @Test
    void failbackAnswersAtOnceAndRetriesInTheBackground() throws Exception {
        java.util.concurrent.atomic.AtomicInteger attempts = new java.util.concurrent.atomic.AtomicInteger();
        java.util.concurrent.CountDownLatch delivered = new java.util.concurrent.CountDownLatch(1);
        FakeEndpoint flaky = new FakeEndpoint("flaky", 100, inv -> {
            if (attempts.incrementAndGet() < 3) {
                return notRun("not yet");
            }
            delivered.countDown();
            return answer("done");
        });
        java.util.concurrent.ScheduledExecutorService scheduler =
                java.util.concurrent.Executors.newSingleThreadScheduledExecutor();
        try {
            FailbackCluster failback = new FailbackCluster(scheduler, now::get, Duration.ofMillis(10), 3, 10);
            Result now = failback.join(of(flaky), new RandomBalancer()).invoke(call(false)).join();
            assertEquals(null, now.value(), "the caller does not wait");
            assertTrue(delivered.await(10, java.util.concurrent.TimeUnit.SECONDS), "delivered on the third try");
            assertEquals(3, attempts.get());
        } finally {
            scheduler.shutdownNow();
        }
    }

    @Test
    void forkingTakesTheFirstAnswerAndFailsOnlyWhenAllFail() {
        CompletableFuture<Result> never = new CompletableFuture<>();
        FakeEndpoint stuck = new FakeEndpoint("stuck", 100, inv -> never);
        FakeEndpoint quick = FakeEndpoint.answering("quick", 100);
        assertEquals("quick", value(new ForkingCluster(2).join(of(stuck, quick), new RandomBalancer())
                .invoke(call(false))));
        assertEquals(1, stuck.calls, "both were asked at once");

        FakeEndpoint a = new FakeEndpoint("a", 100, inv -> notRun("a full"));
        FakeEndpoint b = new FakeEndpoint("b", 100, inv -> notRun("b full"));
        assertEquals(RpcStatus.THREADPOOL_EXHAUSTED, failure(new ForkingCluster(2).join(of(a, b),
                new RandomBalancer()).invoke(call(false))).status());
    }

    @Test
    void broadcastCallsEveryProviderAndFailsIfAnyFails() {
        FakeEndpoint a = FakeEndpoint.answering("a", 100);
        FakeEndpoint b = FakeEndpoint.answering("b", 100);
        FakeEndpoint c = FakeEndpoint.answering("c", 100);
        c.ready = false;
        assertEquals("c", value(new BroadcastCluster().join(of(a, b, c), new RandomBalancer()).invoke(call(false))));
        assertEquals(List.of(1, 1, 1), List.of(a.calls, b.calls, c.calls), "every provider, ready or not");
        FakeEndpoint broken = new FakeEndpoint("broken", 100, inv -> notRun("down"));
        assertEquals(RpcStatus.THREADPOOL_EXHAUSTED, failure(new BroadcastCluster().join(of(a, broken),
                new RandomBalancer()).invoke(call(false))).status());
    }

    @Test
    void aCallThatMayHaveRunSomewhereIsNeverReportedAsNotExecuted() {
        FakeEndpoint lost = new FakeEndpoint("lost", 100, inv -> CompletableFuture.failedFuture(
                new RpcException(RpcStatus.NETWORK, "connection closed mid-call")));
        FakeEndpoint full = new FakeEndpoint("full", 100, inv -> notRun("pool full"));
        full.ready = false; // tried second
        Invoker idempotent = new FailoverCluster(2, RetryBudget.defaults(), now::get, m -> true)
                .join(of(lost, full), new RandomBalancer());
        RpcException e = failure(idempotent.invoke(call(false)));
        assertEquals(false, e.isNotExecuted(), "the first attempt may have run: " + e.getMessage());
        assertTrue(e.getMessage().contains("failed on all of the 2 provider(s)"), e.getMessage());
    }
}
