package io.ferry.rpc.config.internal.cluster;

import io.ferry.rpc.Deadline;
import io.ferry.rpc.Invocation;
import io.ferry.rpc.Ticker;
import io.ferry.rpc.cluster.Endpoint;
import io.ferry.rpc.cluster.LoadBalancer;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Each balancer's choices over many picks, with fake providers whose load and response time the test sets. */
class BalancerTest {
    private static Invocation call(Object... arguments) {
        try {
            return new Invocation("svc.Who", "", "", Object.class.getMethod("toString"), arguments, new HashMap<>(),
                    Deadline.after(Duration.ofSeconds(1), Ticker.system()), false, Runnable::run);
        } catch (NoSuchMethodException e) {
            throw new AssertionError(e);
        }
    }

    private static Map<String, Integer> picks(LoadBalancer balancer, List<Endpoint> candidates, int times) {
        Map<String, Integer> counts = new HashMap<>();
        for (int i = 0; i < times; i++) {
            counts.merge(balancer.select(candidates, call("k" + i)).address(), 1, Integer::sum);
        }
        return counts;
    }

    @Test
    void randomHonoursWeights() {
        Map<String, Integer> counts = picks(new RandomBalancer(),
                List.of(FakeEndpoint.answering("heavy", 300), FakeEndpoint.answering("light", 100)), 40_000);
        double share = counts.get("heavy") / 40_000.0;
        assertTrue(share > 0.72 && share < 0.78, "weights 3:1 give about 75 %, got " + share);
    }

    @Test
    void roundRobinIsSmoothAndExactlyWeighted() {
        List<Endpoint> three = List.of(FakeEndpoint.answering("a", 5), FakeEndpoint.answering("b", 1),
                FakeEndpoint.answering("c", 1));
        RoundRobinBalancer balancer = new RoundRobinBalancer();
        String sequence = java.util.stream.IntStream.range(0, 7)
                .mapToObj(i -> balancer.select(three, call()).address()).collect(Collectors.joining());
        assertEquals("aabacaa", sequence, "nginx's smooth order for 5:1:1");
        Map<String, Integer> counts = picks(balancer, three, 700);
        assertEquals(Map.of("a", 500, "b", 100, "c", 100), counts);
    }

    @Test
    void leastActivePrefersTheIdleProvider() {
        FakeEndpoint busy = FakeEndpoint.answering("busy", 100);
        busy.active = 7;
        FakeEndpoint idle = FakeEndpoint.answering("idle", 100);
        idle.active = 1;
        assertEquals(Map.of("idle", 1000), picks(new LeastActiveBalancer(), List.of(busy, idle), 1000));
        busy.active = 1;
        Map<String, Integer> tied = picks(new LeastActiveBalancer(), List.of(busy, idle), 10_000);
        assertTrue(tied.get("busy") > 4000 && tied.get("idle") > 4000, "a tie is broken at random: " + tied);
    }

    @Test
    void consistentHashSticksAndMovesOnlyTheLeaversKeys() {
        List<Endpoint> four = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            four.add(FakeEndpoint.answering("10.0.0." + i + ":20880", 100));
        }
        ConsistentHashBalancer balancer = new ConsistentHashBalancer(0);
        Map<String, String> before = new HashMap<>();
        for (int k = 0; k < 2000; k++) {
            String chosen = balancer.select(four, call("user-" + k)).address();
            assertEquals(chosen, balancer.select(four, call("user-" + k)).address(), "the same key, the same one");
            before.put("user-" + k, chosen);
        }
        Map<String, Long> spread = before.values().stream().collect(Collectors.groupingBy(a -> a,
                Collectors.counting()));
        assertTrue(spread.values().stream().allMatch(n -> n > 300), "keys spread over all four: " + spread);

        List<Endpoint> three = four.subList(0, 3);
        int moved = 0;
        for (int k = 0; k < 2000; k++) {
            String was = before.get("user-" + k);
            String is = balancer.select(three, call("user-" + k)).address();
            if (!was.equals(four.get(3).address()) && !was.equals(is)) {
                moved++;
            }
        }
        assertEquals(0, moved, "only the keys of the provider that left move");
    }

    @Test
    void shortestResponseTakesTheProviderExpectedToAnswerFirst() {
        FakeEndpoint slow = FakeEndpoint.answering("slow", 100);
        slow.latencyNanos = 20_000_000;
        FakeEndpoint quick = FakeEndpoint.answering("quick", 100);
        quick.latencyNanos = 1_000_000;
        quick.active = 5; // 6 ms expected against 20 ms
        assertEquals(Map.of("quick", 500), picks(new ShortestResponseBalancer(), List.of(slow, quick), 500));
    }

    @Test
    void adaptiveShiftsTrafficAwayFromASlowOrStuckProvider() {
        List<Endpoint> providers = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            FakeEndpoint e = FakeEndpoint.answering("p" + i, 100);
            e.latencyNanos = 1_000_000;
            e.active = 1;
            providers.add(e);
        }
        FakeEndpoint stuck = (FakeEndpoint) providers.get(0);
        Map<String, Integer> even = picks(new AdaptiveBalancer(), providers, 40_000);
        assertTrue(even.values().stream().allMatch(n -> n > 8000), "equal costs, even traffic: " + even);

        stuck.active = 200; // stopped answering: its calls pile up
        Map<String, Integer> shifted = picks(new AdaptiveBalancer(), providers, 40_000);
        assertEquals(null, shifted.get("p0"), "two choices: the stuck one is always the dearer: " + shifted);

        stuck.active = 1;
        stuck.latencyNanos = 5_000_000; // answering, five times slower
        Map<String, Integer> slower = picks(new AdaptiveBalancer(), providers, 40_000);
        assertTrue(slower.getOrDefault("p0", 0) < 1000, "the slow one gets little: " + slower);
    }
}
