package io.ferry.rpc.config.internal.cluster;

import io.ferry.rpc.Invoker;
import io.ferry.rpc.Result;
import io.ferry.rpc.cluster.Cluster;
import io.ferry.rpc.cluster.Directory;
import io.ferry.rpc.cluster.Endpoint;
import io.ferry.rpc.cluster.LoadBalancer;

import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Dubbo's {@code broadcast}: the call goes to every provider at once; it succeeds with the last provider's answer
 * when all succeed, and fails with the first failure (in the providers' order) otherwise. For refreshing a cache
 * on every provider and the like.
 */
public final class BroadcastCluster implements Cluster {
    @Override
    public Invoker join(Directory directory, LoadBalancer balancer) {
        return invocation -> {
            List<Endpoint> all = directory.endpoints();
            if (all.isEmpty()) {
                return CompletableFuture.failedFuture(Candidates.noProvider(invocation, directory));
            }
            @SuppressWarnings("unchecked")
            CompletableFuture<Result>[] calls = new CompletableFuture[all.size()];
            for (int i = 0; i < calls.length; i++) {
                calls[i] = all.get(i).invoke(invocation);
            }
            return CompletableFuture.allOf(calls).handle((ignored, anyError) -> {
                Result last = null;
                for (CompletableFuture<Result> call : calls) {
                    last = call.join(); // the first failure in order ends the call
                }
                return last;
            });
        };
    }
}
