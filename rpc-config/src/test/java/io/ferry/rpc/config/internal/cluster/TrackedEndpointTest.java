package io.ferry.rpc.config.internal.cluster;

import io.ferry.rpc.Deadline;
import io.ferry.rpc.Invocation;
import io.ferry.rpc.Result;
import io.ferry.rpc.RpcException;
import io.ferry.rpc.RpcStatus;
import io.ferry.rpc.config.OutlierEjection;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What a reference records of one provider: load, response times, ejection, warm-up; on fake clocks. */
class TrackedEndpointTest {
    private final AtomicLong nanos = new AtomicLong();
    private final AtomicLong wallMillis = new AtomicLong(1_000_000);
    private final ScriptedProvider provider = new ScriptedProvider();

    /** Each call gets the next future the test queued, and is kept. */
    private static final class ScriptedProvider extends StubProvider {
        final Queue<CompletableFuture<Result>> answers = new ArrayDeque<>();
        final Queue<Invocation> calls = new ArrayDeque<>();

        ScriptedProvider() {
            super("127.0.0.1:20880");
        }

        @Override
        public CompletableFuture<Result> invoke(Invocation invocation) {
            calls.add(invocation);
            return answers.remove();
        }
    }

    private TrackedEndpoint tracked(OutlierEjection policy, int providers, long startedAtMillis) {
        return tracked(policy, providers, startedAtMillis, null);
    }

    private TrackedEndpoint tracked(OutlierEjection policy, int providers, long startedAtMillis, String token) {
        return new TrackedEndpoint(provider, 100, new Ejections(policy, () -> providers), nanos::get,
                wallMillis::get, startedAtMillis, Duration.ofMinutes(10).toMillis(), token);
    }

    @Test
    void aProviderThatAsksForATokenGetsItOnACopyOfEachCall() {
        TrackedEndpoint endpoint = tracked(OutlierEjection.defaults(), 1, 0, "t-1");
        Invocation call = call();
        call.attachments().put("trace", "x");
        provider.answers.add(CompletableFuture.completedFuture(Result.of("ok")));
        endpoint.invoke(call);
        Invocation sent = provider.calls.remove();
        assertEquals("t-1", sent.attachments().get("token"));
        assertEquals("x", sent.attachments().get("trace"));
        assertFalse(call.attachments().containsKey("token"), "the call may go to another provider next");

        TrackedEndpoint without = tracked(OutlierEjection.defaults(), 1, 0, null);
        provider.answers.add(CompletableFuture.completedFuture(Result.of("ok")));
        without.invoke(call);
        assertSame(call, provider.calls.remove(), "no token, no copy");
    }

    @Test
    void aTokenRefusalIsNeitherAnAnswerTimeNorAFailureOfTheProvider() {
        TrackedEndpoint endpoint = tracked(OutlierEjection.defaults(), 2, 0, "t-1");
        provider.answers.add(CompletableFuture.failedFuture(new RpcException(RpcStatus.FORBIDDEN,
                RpcStatus.INVALID_TOKEN_PREFIX + "...")));
        endpoint.invoke(call());
        assertEquals(0, endpoint.failed());
        assertEquals(0, endpoint.succeeded());
        assertTrue(endpoint.isReady());
    }

    private Invocation call() {
        try {
            return new Invocation("svc", "", "", Object.class.getMethod("toString"), new Object[0], new HashMap<>(),
                    Deadline.after(Duration.ofSeconds(1), nanos::get), false, Runnable::run);
        } catch (NoSuchMethodException e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void countsCallsInFlightAndTakesTheResponseTimeOfAnswers() {
        TrackedEndpoint endpoint = tracked(OutlierEjection.defaults(), 2, 0);
        CompletableFuture<Result> answer = new CompletableFuture<>();
        provider.answers.add(answer);
        endpoint.invoke(call());
        assertEquals(1, endpoint.stats().active());
        nanos.addAndGet(Duration.ofMillis(20).toNanos());
        answer.complete(Result.of("x"));
        assertEquals(0, endpoint.stats().active());
        assertEquals(20e6, endpoint.stats().latencyNanos(), 1e3);
        assertEquals(1, endpoint.stats().succeeded());
        nanos.addAndGet(Duration.ofSeconds(10).toNanos());
        assertTrue(endpoint.stats().latencyNanos() < 20e6 / 100, "mostly forgotten after 10 s without answers");
    }

    @Test
    void timeoutsInARowTakeItOutOfRotationAndAnAnsweredProbeBringsItBack() {
        TrackedEndpoint endpoint = tracked(OutlierEjection.defaults(), 2, 0);
        for (int i = 0; i < 5; i++) {
            provider.answers.add(CompletableFuture.failedFuture(new RpcException(RpcStatus.TIMEOUT, "no answer")));
            endpoint.invoke(call());
        }
        assertFalse(endpoint.isReady(), "ejected after 5 timeouts in a row");
        assertEquals(5, endpoint.stats().failed());
        nanos.addAndGet(Duration.ofSeconds(5).toNanos());
        assertTrue(endpoint.isReady(), "its probe is due");
        provider.answers.add(CompletableFuture.completedFuture(Result.of("ok")));
        endpoint.invoke(call());
        assertTrue(endpoint.isReady(), "answered: trusted again");
    }

    @Test
    void aProvidersOwnErrorsAreAnswersNotFailures() {
        TrackedEndpoint endpoint = tracked(OutlierEjection.defaults(), 2, 0);
        for (int i = 0; i < 10; i++) {
            provider.answers.add(CompletableFuture.failedFuture(new IllegalArgumentException("bad input")));
            endpoint.invoke(call());
            provider.answers.add(CompletableFuture.failedFuture(
                    RpcException.notExecuted(RpcStatus.THREADPOOL_EXHAUSTED, "busy", null)));
            endpoint.invoke(call());
        }
        assertTrue(endpoint.isReady());
        assertEquals(0, endpoint.stats().failed());
    }

    @Test
    void callsNeverSentDoNotCountAgainstAProvider() {
        TrackedEndpoint endpoint = tracked(OutlierEjection.defaults(), 2, 0);
        for (int i = 0; i < 10; i++) {
            provider.answers.add(CompletableFuture.failedFuture(RpcException.notExecuted(RpcStatus.NETWORK,
                    "cannot connect: refused", null)));
            endpoint.invoke(call());
        }
        assertTrue(endpoint.isReady(), "not connected is the endpoint's readiness, not an outlier");
        assertEquals(0, endpoint.stats().failed());
    }

    @Test
    void weightRampsUpOverTheWarmUp() {
        TrackedEndpoint endpoint = tracked(OutlierEjection.defaults(), 2, wallMillis.get());
        assertEquals(1, endpoint.weight(), "just started");
        wallMillis.addAndGet(Duration.ofMinutes(5).toMillis());
        assertEquals(50, endpoint.weight());
        wallMillis.addAndGet(Duration.ofMinutes(6).toMillis());
        assertEquals(100, endpoint.weight());
        assertEquals(100, tracked(OutlierEjection.defaults(), 2, 0).weight(), "no start time known: full weight");
    }

    @Test
    void refusalsTeachNoResponseTimeAndLeaveAProbeDue() {
        TrackedEndpoint endpoint = tracked(OutlierEjection.defaults(), 2, 0);
        CompletableFuture<Result> slow = new CompletableFuture<>();
        provider.answers.add(slow);
        endpoint.invoke(call());
        nanos.addAndGet(Duration.ofMillis(50).toNanos());
        slow.complete(Result.of("x"));
        double before = endpoint.stats().latencyNanos();
        for (int i = 0; i < 20; i++) {
            provider.answers.add(CompletableFuture.failedFuture(
                    RpcException.notExecuted(RpcStatus.THREADPOOL_EXHAUSTED, "busy", null)));
            endpoint.invoke(call());
        }
        assertEquals(before, endpoint.stats().latencyNanos(), 1.0, "instant refusals do not make it look fast");
        assertEquals(0, endpoint.stats().succeeded() - 1, "only the real answer counts");
    }
}
