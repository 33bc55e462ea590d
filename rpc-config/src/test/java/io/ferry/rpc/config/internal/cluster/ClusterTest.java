package io.ferry.rpc.config.internal.cluster;

import io.ferry.rpc.Deadline;
import io.ferry.rpc.Invocation;
import io.ferry.rpc.Invoker;
import io.ferry.rpc.Result;
import io.ferry.rpc.RpcException;
import io.ferry.rpc.RpcStatus;
import io.ferry.rpc.cluster.Directory;
import io.ferry.rpc.cluster.Endpoint;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The balancer and the failover strategy against scripted providers, on a fake clock. No network. */
class ClusterTest {
    private final AtomicLong now = new AtomicLong();

    /** A provider whose every answer {@code script} decides; counts its calls. */
    private static final class FakeEndpoint implements Endpoint {
        final String address;
        final int weight;
        final Function<Invocation, CompletableFuture<Result>> script;
        boolean ready = true;
        int calls;

        FakeEndpoint(String address, int weight, Function<Invocation, CompletableFuture<Result>> script) {
            this.address = address;
            this.weight = weight;
            this.script = script;
        }

        @Override
        public CompletableFuture<Result> invoke(Invocation invocation) {
            calls++;
            return script.apply(invocation);
        }

        @Override
        public String address() {
            return address;
        }

        @Override
        public int weight() {
            return weight;
        }

        @Override
        public boolean isReady() {
            return ready;
        }
    }

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
}
