package io.ferry.rpc.config.internal.cluster;

import io.ferry.rpc.Invocation;
import io.ferry.rpc.cluster.Endpoint;
import io.ferry.rpc.cluster.LoadBalancer;

import java.util.List;

/** Dubbo's {@code leastactive}: the fewest calls in flight from this reference; ties by weighted random. */
public final class LeastActiveBalancer implements LoadBalancer {
    @Override
    public Endpoint select(List<Endpoint> candidates, Invocation invocation) {
        return WeightedPick.cheapest(candidates, e -> e.stats().active());
    }
}
