package io.ferry.rpc.config.internal.cluster;

import io.ferry.rpc.Invocation;
import io.ferry.rpc.cluster.Endpoint;
import io.ferry.rpc.cluster.LoadBalancer;

import java.util.ArrayList;
import java.util.List;

/**
 * Dubbo's {@code shortestresponse}: the provider whose next answer is expected soonest, its average response time
 * × (its calls in flight + 1), per unit of weight; ties by weighted random.
 */
public final class ShortestResponseBalancer implements LoadBalancer {
    @Override
    public Endpoint select(List<Endpoint> candidates, Invocation invocation) {
        double best = Double.MAX_VALUE;
        List<Endpoint> tied = new ArrayList<>(candidates.size());
        for (Endpoint e : candidates) {
            double cost = AdaptiveBalancer.cost(e);
            if (cost < best) {
                best = cost;
                tied.clear();
            }
            if (cost == best) {
                tied.add(e);
            }
        }
        return WeightedPick.among(tied);
    }
}
