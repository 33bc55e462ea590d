package io.ferry.rpc.config.internal.cluster;

import io.ferry.rpc.Invocation;
import io.ferry.rpc.Invoker;
import io.ferry.rpc.Result;
import io.ferry.rpc.RpcException;
import io.ferry.rpc.RpcStatus;
import io.ferry.rpc.cluster.Cluster;
import io.ferry.rpc.cluster.Directory;
import io.ferry.rpc.cluster.Endpoint;
import io.ferry.rpc.cluster.LoadBalancer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * Dubbo's {@code failover}, made safe: an attempt that provably did not run on its provider
 * ({@link RpcException#isNotExecuted()}: no connection, a failed write, a full pool, shutting down) moves to
 * another provider not yet tried, up to {@code retries} times, within the call's one deadline. An attempt that may
 * have run is never repeated, and one-way calls are never retried. Each attempt prefers providers ready to take
 * the call now (connected, not shutting down) and falls back to the others when none is.
 */
public final class FailoverCluster implements Cluster {
    private static final Logger log = LoggerFactory.getLogger(FailoverCluster.class);

    private final int retries;

    public FailoverCluster(int retries) {
        this.retries = retries;
    }

    @Override
    public Invoker join(Directory directory, LoadBalancer balancer) {
        return invocation -> {
            CompletableFuture<Result> result = new CompletableFuture<>();
            new Call(directory, balancer, invocation, result).attempt(null);
            return result;
        };
    }

    /** One call's attempts: which providers it tried, and how it ends. */
    private final class Call {
        private final Directory directory;
        private final LoadBalancer balancer;
        private final Invocation invocation;
        private final CompletableFuture<Result> result;
        private final Set<String> tried = new LinkedHashSet<>();

        Call(Directory directory, LoadBalancer balancer, Invocation invocation, CompletableFuture<Result> result) {
            this.directory = directory;
            this.balancer = balancer;
            this.invocation = invocation;
            this.result = result;
        }

        void attempt(RpcException previous) {
            boolean outOfTime = invocation.deadline().isExpired();
            boolean mayRetry = tried.isEmpty() || (tried.size() <= retries && !invocation.oneway());
            Endpoint endpoint = outOfTime || !mayRetry ? null : select();
            if (endpoint == null) {
                result.completeExceptionally(noneLeft(previous, outOfTime));
                return;
            }
            tried.add(endpoint.address());
            CompletableFuture<Result> attempt;
            try {
                attempt = endpoint.invoke(invocation);
            } catch (RuntimeException e) {
                attempt = CompletableFuture.failedFuture(e);
            }
            attempt.whenComplete((value, error) -> {
                if (error == null) {
                    result.complete(value);
                } else if (error instanceof RpcException rpc && rpc.isNotExecuted()) {
                    log.debug("{} did not run on {} ({}); trying another provider", invocation.description(),
                            endpoint.address(), rpc.getMessage());
                    attempt(rpc);
                } else {
                    result.completeExceptionally(error);
                }
            });
        }

        private Endpoint select() {
            List<Endpoint> untried = new ArrayList<>();
            List<Endpoint> ready = new ArrayList<>();
            for (Endpoint e : directory.endpoints()) {
                if (!tried.contains(e.address())) {
                    untried.add(e);
                    if (e.isReady()) {
                        ready.add(e);
                    }
                }
            }
            List<Endpoint> candidates = ready.isEmpty() ? untried : ready;
            return candidates.isEmpty() ? null : balancer.select(candidates, invocation);
        }

        private RpcException noneLeft(RpcException previous, boolean outOfTime) {
            if (tried.isEmpty()) {
                return RpcException.notExecuted(outOfTime ? RpcStatus.TIMEOUT : RpcStatus.NO_PROVIDER,
                        "no provider of " + invocation.serviceKey() + " is available for "
                                + invocation.description() + " (" + directory.describe() + ")", null);
            }
            if (tried.size() == 1 && previous != null) {
                return previous;
            }
            return RpcException.notExecuted(previous != null ? previous.status() : RpcStatus.NO_PROVIDER,
                    invocation.description() + " ran on none of the " + tried.size() + " provider(s) tried " + tried
                            + (outOfTime ? " within its timeout of " + invocation.deadline().timeoutMillis() + " ms"
                            : "") + (previous != null ? "; last: " + previous.getMessage() : ""), previous);
        }
    }
}
