package io.ferry.rpc.config.internal.cluster;

import io.ferry.rpc.Invoker;
import io.ferry.rpc.cluster.Cluster;
import io.ferry.rpc.cluster.Directory;
import io.ferry.rpc.cluster.Endpoint;
import io.ferry.rpc.cluster.LoadBalancer;

import java.util.Set;
import java.util.concurrent.CompletableFuture;

/** Dubbo's {@code failfast}: one attempt, on a ready provider when there is one; its failure is the call's. */
public final class FailfastCluster implements Cluster {
    @Override
    public Invoker join(Directory directory, LoadBalancer balancer) {
        return invocation -> {
            Endpoint endpoint = Candidates.pick(directory, balancer, invocation, Set.of());
            if (endpoint == null) {
                return CompletableFuture.failedFuture(Candidates.noProvider(invocation, directory));
            }
            return endpoint.invoke(invocation);
        };
    }
}
