package io.ferry.rpc.config.internal.cluster;

import io.ferry.rpc.Invocation;
import io.ferry.rpc.cluster.Endpoint;
import io.ferry.rpc.cluster.LoadBalancer;

import java.util.List;

/** Dubbo's {@code random}: weighted random (weights ramp up over each provider's warm-up). */
public final class RandomBalancer implements LoadBalancer {
    @Override
    public Endpoint select(List<Endpoint> candidates, Invocation invocation) {
        return WeightedPick.among(candidates);
    }
}
