package io.ferry.rpc.config.internal.cluster;

import io.ferry.rpc.Invocation;
import io.ferry.rpc.cluster.Endpoint;
import io.ferry.rpc.cluster.LoadBalancer;

import java.util.ArrayList;
import java.util.List;

/** Dubbo's {@code leastactive}: the fewest calls in flight from this reference; ties by weighted random. */
public final class LeastActiveBalancer implements LoadBalancer {
    @Override
    public Endpoint select(List<Endpoint> candidates, Invocation invocation) {
        int least = Integer.MAX_VALUE;
        List<Endpoint> tied = new ArrayList<>(candidates.size());
        for (Endpoint e : candidates) {
            int active = e.stats().active();
            if (active < least) {
                least = active;
                tied.clear();
            }
            if (active == least) {
                tied.add(e);
            }
        }
        return WeightedPick.among(tied);
    }
}
