package io.ferry.rpc.config.internal.cluster;

import io.ferry.rpc.Invocation;
import io.ferry.rpc.cluster.Endpoint;
import io.ferry.rpc.cluster.EndpointStats;
import io.ferry.rpc.cluster.LoadBalancer;

import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

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

    @Override
    public Endpoint select(List<Endpoint> candidates, Invocation invocation) {
        int size = candidates.size();
        if (size == 1) {
            return candidates.get(0);
        }
        ThreadLocalRandom random = ThreadLocalRandom.current();
        int a = random.nextInt(size);
        int b = random.nextInt(size - 1);
        if (b >= a) {
            b++;
        }
        Endpoint first = candidates.get(a);
        Endpoint second = candidates.get(b);
        return cost(second) < cost(first) ? second : first;
    }

    /** Expected time to an answer, per unit of weight. */
    static double cost(Endpoint endpoint) {
        EndpointStats stats = endpoint.stats();
        double latency = stats.latencyNanos();
        double expected = (latency > 0 ? latency : UNMEASURED_NANOS) * (stats.active() + 1);
        return expected / Math.max(1, endpoint.weight());
    }
}
