package io.ferry.rpc.config.internal.cluster;

import io.ferry.rpc.Invoker;
import io.ferry.rpc.Result;
import io.ferry.rpc.cluster.Cluster;
import io.ferry.rpc.cluster.Directory;
import io.ferry.rpc.cluster.Endpoint;
import io.ferry.rpc.cluster.LoadBalancer;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Dubbo's {@code forking}: the call goes to {@code forks} distinct providers at once (chosen by the balancer,
 * ready ones first); the first answer wins, and the call fails only when every one of them failed (with the last
 * failure). For reads that must be fast at the price of extra load.
 */
public final class ForkingCluster implements Cluster {
    private final int forks;

    public ForkingCluster(int forks) {
        this.forks = forks;
    }

    @Override
    public Invoker join(Directory directory, LoadBalancer balancer) {
        return invocation -> {
            Set<String> chosen = new HashSet<>();
            List<Endpoint> targets = new ArrayList<>();
            while (targets.size() < forks) {
                Endpoint next = Candidates.pick(directory, balancer, invocation, chosen);
                if (next == null) {
                    break;
                }
                chosen.add(next.address());
                targets.add(next);
            }
            if (targets.isEmpty()) {
                return CompletableFuture.failedFuture(Candidates.noProvider(invocation, directory));
            }
            CompletableFuture<Result> first = new CompletableFuture<>();
            AtomicInteger failures = new AtomicInteger();
            for (Endpoint target : targets) {
                target.invoke(invocation).whenComplete((r, e) -> {
                    if (e == null) {
                        first.complete(r);
                    } else if (failures.incrementAndGet() == targets.size()) {
                        first.completeExceptionally(e);
                    }
                });
            }
            return first;
        };
    }
}
