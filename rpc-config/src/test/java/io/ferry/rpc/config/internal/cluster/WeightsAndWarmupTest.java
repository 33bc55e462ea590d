package io.ferry.rpc.config.internal.cluster;

import io.ferry.rpc.Deadline;
import io.ferry.rpc.Invocation;
import io.ferry.rpc.Ticker;
import io.ferry.rpc.cluster.Endpoint;
import io.ferry.rpc.cluster.LoadBalancer;
import io.ferry.rpc.config.OutlierEjection;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Static weights and Dubbo's warm-up as the balancers that weigh providers see them: random and the adaptive one
 * from a seeded random source, round robin exactly, the warm-up on a fake wall clock. Seeded, each count is the
 * same at every run; the bounds are still those a fair draw keeps (more than 8 standard deviations wide).
 */
class WeightsAndWarmupTest {
    private static final long WARMUP = Duration.ofMinutes(10).toMillis();
    private final AtomicLong wallMillis = new AtomicLong(1_800_000_000_000L);
    private final AtomicLong nanos = new AtomicLong();

    private static Invocation call() {
        try {
            return new Invocation("svc.Who", "", "", Object.class.getMethod("toString"), new Object[0],
                    new HashMap<>(), Deadline.after(Duration.ofSeconds(1), Ticker.system()), false, Runnable::run);
        } catch (NoSuchMethodException e) {
            throw new AssertionError(e);
        }
    }

    private static Map<String, Integer> picks(LoadBalancer balancer, List<Endpoint> candidates, int times) {
        Map<String, Integer> counts = new HashMap<>();
        for (String address : candidates.stream().map(Endpoint::address).toList()) {
            counts.put(address, 0);
        }
        for (int i = 0; i < times; i++) {
            counts.merge(balancer.select(candidates, call()).address(), 1, Integer::sum);
        }
        return counts;
    }

    /** A provider that registered at {@code startedAtMillis} on the test's wall clock. */
    private TrackedEndpoint provider(String address, int weight, long startedAtMillis) {
        return new TrackedEndpoint(new StubProvider(address), weight,
                new Ejections(OutlierEjection.disabled(), () -> 2), nanos::get, wallMillis::get, startedAtMillis,
                WARMUP, null);
    }

    private static void assertNear(double expected, int count, int total, double tolerance, String what) {
        double share = (double) count / total;
        assertTrue(Math.abs(share - expected) < tolerance, what + ": expected a share of about " + expected
                + ", got " + share);
    }

    @Test
    void randomGivesEachProviderItsWeightsShare() {
        List<Endpoint> three = List.of(FakeEndpoint.answering("a", 600), FakeEndpoint.answering("b", 300),
                FakeEndpoint.answering("c", 100));
        Random seeded = new Random(22);
        Map<String, Integer> counts = picks(new RandomBalancer(() -> seeded), three, 20_000);
        assertNear(0.6, counts.get("a"), 20_000, 0.03, "weight 600 of 1000");
        assertNear(0.3, counts.get("b"), 20_000, 0.03, "weight 300 of 1000");
        assertNear(0.1, counts.get("c"), 20_000, 0.02, "weight 100 of 1000");
    }

    @Test
    void randomNeverPicksAWeightOfZeroWhileAnotherHasWeight() {
        List<Endpoint> two = List.of(FakeEndpoint.answering("zero", 0), FakeEndpoint.answering("one", 1));
        Random seeded = new Random(4);
        assertEquals(Map.of("zero", 0, "one", 1000), picks(new RandomBalancer(() -> seeded), two, 1000));
    }

    @Test
    void aNewProvidersShareOfRandomCallsRampsUpOverItsWarmUp() {
        TrackedEndpoint old = provider("10.0.0.1:20880", 100, wallMillis.get() - 2 * WARMUP);
        TrackedEndpoint fresh = provider("10.0.0.2:20880", 100, wallMillis.get());
        List<Endpoint> both = List.of(old, fresh);
        Random seeded = new Random(7);
        RandomBalancer balancer = new RandomBalancer(() -> seeded);

        assertEquals(1, fresh.weight(), "just registered: weight 1, as Dubbo's");
        assertNear(1 / 101.0, picks(balancer, both, 10_000).get(fresh.address()), 10_000, 0.008, "at 0 min");
        wallMillis.addAndGet(WARMUP / 4);
        assertEquals(25, fresh.weight(), "a quarter of the warm-up: a quarter of the weight");
        assertNear(25 / 125.0, picks(balancer, both, 10_000).get(fresh.address()), 10_000, 0.04, "at 2.5 min");
        wallMillis.addAndGet(WARMUP / 4);
        assertNear(50 / 150.0, picks(balancer, both, 10_000).get(fresh.address()), 10_000, 0.04, "at 5 min");
        wallMillis.addAndGet(WARMUP / 2);
        assertEquals(100, fresh.weight(), "warmed up: its full weight");
        assertNear(0.5, picks(balancer, both, 10_000).get(fresh.address()), 10_000, 0.04, "at 10 min");
    }

    @Test
    void warmUpFollowsDubbosRuleAtItsEdges() {
        TrackedEndpoint ahead = provider("10.0.0.3:20880", 100, wallMillis.get() + 60_000);
        assertEquals(1, ahead.weight(), "a provider whose clock is ahead of ours: weight 1, as Dubbo's");
        TrackedEndpoint heavy = provider("10.0.0.4:20880", 1000, wallMillis.get() - WARMUP / 1000 + 1);
        assertEquals(1, heavy.weight(), "at least 1");
        TrackedEndpoint none = new TrackedEndpoint(new StubProvider("10.0.0.5:20880"), 100,
                new Ejections(OutlierEjection.disabled(), () -> 2), nanos::get, wallMillis::get, wallMillis.get(), 0,
                null);
        assertEquals(100, none.weight(), "warmup 0: no ramp");
        TrackedEndpoint unknown = provider("10.0.0.6:20880", 100, 0);
        assertEquals(100, unknown.weight(), "no timestamp (a Dubbo consumer strips it): no ramp");
    }

    @Test
    void roundRobinFollowsWarmingWeightsExactly() {
        TrackedEndpoint old = provider("10.0.0.1:20880", 100, wallMillis.get() - 2 * WARMUP);
        TrackedEndpoint fresh = provider("10.0.0.2:20880", 100, wallMillis.get() - WARMUP / 4);
        RoundRobinBalancer balancer = new RoundRobinBalancer();
        assertEquals(Map.of(old.address(), 400, fresh.address(), 100),
                picks(balancer, List.of(old, fresh), 500), "weights 100:25, smooth round robin");
        wallMillis.addAndGet(WARMUP);
        assertEquals(Map.of(old.address(), 250, fresh.address(), 250),
                picks(balancer, List.of(old, fresh), 500), "both warmed up: 100:100");
    }

    @Test
    void theAdaptiveBalancerTakesWeightAsAMultiplierOfCapacity() {
        FakeEndpoint heavy = FakeEndpoint.answering("heavy", 300);
        FakeEndpoint light = FakeEndpoint.answering("light", 100);
        heavy.latencyNanos = light.latencyNanos = 1_000_000;
        Random seeded = new Random(3);
        AdaptiveBalancer balancer = new AdaptiveBalancer(() -> seeded);
        List<Endpoint> both = List.of(heavy, light);
        heavy.active = 1; // 2 calls' worth over weight 300, against 1 over 100
        assertEquals(Map.of("heavy", 1000, "light", 0), picks(balancer, both, 1000));
        heavy.active = 3; // 4 over 300: now the dearer
        assertEquals(Map.of("heavy", 0, "light", 1000), picks(balancer, both, 1000));
        FakeEndpoint zero = FakeEndpoint.answering("zero", 0);
        zero.latencyNanos = 1;
        assertEquals(0, picks(balancer, List.of(zero, light), 1000).get("zero"), "weight 0: never while another");
    }

    @Test
    void theAdaptiveBalancerRampsANewProviderUpWithItsWarmUp() {
        TrackedEndpoint old = provider("10.0.0.1:20880", 100, wallMillis.get() - 2 * WARMUP);
        TrackedEndpoint fresh = provider("10.0.0.2:20880", 100, wallMillis.get());
        Random seeded = new Random(5);
        AdaptiveBalancer balancer = new AdaptiveBalancer(() -> seeded);
        List<Endpoint> both = List.of(old, fresh);
        assertEquals(0, picks(balancer, both, 1000).get(fresh.address()), "weight 1 against 100, both unmeasured");
        wallMillis.addAndGet(WARMUP);
        assertNear(0.5, picks(balancer, both, 10_000).get(fresh.address()), 10_000, 0.05,
                "warmed up and equal in every way: a tie goes to the first drawn");
    }
}
