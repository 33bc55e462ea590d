package io.ferry.rpc.config.internal.cluster;

import io.ferry.rpc.Invocation;
import io.ferry.rpc.cluster.Endpoint;
import io.ferry.rpc.cluster.EndpointStats;
import io.ferry.rpc.cluster.LoadBalancer;

import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Supplier;
import java.util.random.RandomGenerator;

/**
 * Ferry's default: the power of two choices over a peak-EWMA cost (as Finagle's and Linkerd's balancers). Two
 * providers are drawn at random and the cheaper one is taken, where cost is the moving average of response time ×
 * (calls in flight + 1), per unit of weight. A provider that turns slow, or stops answering while its connection
 * stays up, piles up calls in flight and is avoided at once; drawing two at random keeps a herd of consumers from
 * all rushing to the one that looks best.
 */
public final class AdaptiveBalancer implements LoadBalancer {
    /** The response time assumed of a provider not yet measured: short, so new providers get tried. */
    private static final double UNMEASURED_NANOS = 100_000;

    private final Supplier<RandomGenerator> random;

    public AdaptiveBalancer() {
        this(ThreadLocalRandom::current);
    }

    /** Drawing from {@code random} (a seeded one, in tests: then calls must come from one thread). */
    public AdaptiveBalancer(Supplier<RandomGenerator> random) {
        this.random = random;
    }

    @Override
    public Endpoint select(List<Endpoint> candidates, Invocation invocation) {
        int size = candidates.size();
        if (size == 1) {
            return candidates.get(0);
        }
        RandomGenerator random = this.random.get();
        int a = random.nextInt(size);
        int b = random.nextInt(size - 1);
        if (b >= a) {
            b++;
        }
        Endpoint first = candidates.get(a);
        Endpoint second = candidates.get(b);
        return cost(second) < cost(first) ? second : first;
    }

    /**
     * Expected time to an answer, per unit of weight: a provider of weight 300 is taken over one of weight 100 until
     * it is three times as loaded or as slow. Weight 0 (a provider its operator asked for no calls) costs the most.
     */
    static double cost(Endpoint endpoint) {
        EndpointStats stats = endpoint.stats();
        double latency = stats.latencyNanos();
        double expected = (latency > 0 ? latency : UNMEASURED_NANOS) * (stats.active() + 1);
        int weight = endpoint.weight();
        return weight <= 0 ? Double.MAX_VALUE : expected / weight;
    }
}
