package io.ferry.rpc.config.internal.cluster;

import io.ferry.rpc.Invocation;
import io.ferry.rpc.cluster.Endpoint;
import io.ferry.rpc.cluster.LoadBalancer;

import java.util.List;

/**
 * Dubbo's {@code shortestresponse}: the provider whose next answer is expected soonest, its average response time
 * × (its calls in flight + 1), per unit of weight; ties by weighted random.
 */
public final class ShortestResponseBalancer implements LoadBalancer {
    @Override
    public Endpoint select(List<Endpoint> candidates, Invocation invocation) {
        return WeightedPick.cheapest(candidates, AdaptiveBalancer::cost);
    }
}
