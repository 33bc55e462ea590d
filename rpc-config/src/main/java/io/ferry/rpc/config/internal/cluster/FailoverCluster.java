package io.ferry.rpc.config.internal.cluster;

import io.ferry.rpc.Invocation;
import io.ferry.rpc.Invoker;
import io.ferry.rpc.Result;
import io.ferry.rpc.RpcException;
import io.ferry.rpc.RpcStatus;
import io.ferry.rpc.Ticker;
import io.ferry.rpc.cluster.Cluster;
import io.ferry.rpc.cluster.Directory;
import io.ferry.rpc.cluster.Endpoint;
import io.ferry.rpc.cluster.LoadBalancer;
import io.ferry.rpc.config.RetryBudget;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.lang.reflect.Method;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.Predicate;
import java.util.function.ToIntFunction;

/**
 * Dubbo's {@code failover}, made safe. An attempt that provably did not run on its provider
 * ({@link RpcException#isNotExecuted()}: no connection, a failed write, a full pool, shutting down) moves to a
 * provider not yet tried, up to {@code retries} times, within the call's one deadline and the reference's retry
 * budget. An attempt that may have run is repeated only for a method marked idempotent, and only when the provider
 * never answered (a lost connection). One-way calls are never retried.
 */
public final class FailoverCluster implements Cluster {
    private static final Logger log = LoggerFactory.getLogger(FailoverCluster.class);

    private final ToIntFunction<Method> retries;
    private final RetryAllowance allowance;
    private final Predicate<Method> idempotent;

    public FailoverCluster(int retries, RetryBudget budget, Ticker ticker, Predicate<Method> idempotent) {
        this(m -> retries, budget, ticker, idempotent);
    }

    /** {@code retries}: per method, for methods that set their own. */
    public FailoverCluster(ToIntFunction<Method> retries, RetryBudget budget, Ticker ticker,
                           Predicate<Method> idempotent) {
        this.retries = retries;
        this.allowance = new RetryAllowance(budget, ticker);
        this.idempotent = idempotent;
    }

    /** No retry budget and no idempotent methods: for tests of the strategy alone. */
    public FailoverCluster(int retries) {
        this(retries, RetryBudget.unlimited(), Ticker.system(), m -> false);
    }

    @Override
    public Invoker join(Directory directory, LoadBalancer balancer) {
        return new Joined(directory, balancer);
    }

    /** The reference's invoker; it says what its retries came to, for the meters. */
    private final class Joined implements Invoker, RetryStats {
        private final Directory directory;
        private final LoadBalancer balancer;

        Joined(Directory directory, LoadBalancer balancer) {
            this.directory = directory;
            this.balancer = balancer;
        }

        @Override
        public CompletableFuture<Result> invoke(Invocation invocation) {
            allowance.called();
            CompletableFuture<Result> result = new CompletableFuture<>();
            new Call(directory, balancer, invocation, result).attempt(null);
            return result;
        }

        @Override
        public long retries() {
            return allowance.taken();
        }

        @Override
        public long refusedByBudget() {
            return allowance.refused();
        }

        @Override
        public double budgetLeft() {
            return allowance.left();
        }
    }

    /** One call's attempts: which providers it tried, and how it ends. */
    private final class Call {
        private final Directory directory;
        private final LoadBalancer balancer;
        private final Invocation invocation;
        private final CompletableFuture<Result> result;
        private final Set<String> tried = new LinkedHashSet<>();
        /** Whether every failed attempt provably did not run (then so did the call). */
        private boolean allUnrun = true;

        Call(Directory directory, LoadBalancer balancer, Invocation invocation, CompletableFuture<Result> result) {
            this.directory = directory;
            this.balancer = balancer;
            this.invocation = invocation;
            this.result = result;
        }

        void attempt(RpcException previous) {
            boolean outOfTime = invocation.deadline().isExpired();
            Endpoint endpoint = outOfTime ? null : Candidates.pick(directory, balancer, invocation, tried);
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
                } else if (error instanceof RpcException rpc && safeToRetry(rpc)) {
                    allUnrun &= rpc.isNotExecuted();
                    if (withinLimits()) {
                        log.debug("{} failed on {} ({}); trying another provider", invocation.description(),
                                endpoint.address(), rpc.getMessage());
                        attempt(rpc);
                    } else {
                        result.completeExceptionally(noneLeft(rpc, invocation.deadline().isExpired()));
                    }
                } else {
                    result.completeExceptionally(error);
                }
            });
        }

        private boolean safeToRetry(RpcException e) {
            return !invocation.oneway() && (e.isNotExecuted()
                    || (e.status() == RpcStatus.NETWORK && idempotent.test(invocation.method())));
        }

        /** Retries left for this call, time left, and room in the reference's budget (taken only if all else holds). */
        private boolean withinLimits() {
            return tried.size() <= retries.applyAsInt(invocation.method()) && !invocation.deadline().isExpired()
                    && allowance.tryRetry();
        }

        private RpcException noneLeft(RpcException previous, boolean outOfTime) {
            if (tried.isEmpty()) {
                return Candidates.noProvider(invocation, directory);
            }
            if (tried.size() == 1 && previous != null) {
                return previous;
            }
            RpcStatus status = previous != null ? previous.status() : RpcStatus.NO_PROVIDER;
            String message = invocation.description() + (allUnrun ? " ran on none of the " : " failed on all of the ")
                    + tried.size() + " provider(s) tried " + tried + (outOfTime ? " within its timeout of "
                    + invocation.deadline().timeoutMillis() + " ms" : "") + (previous != null ? "; last: "
                    + previous.getMessage() : "");
            return allUnrun ? RpcException.notExecuted(status, message, previous)
                    : RpcException.mayHaveRun(status, message, previous);
        }
    }
}
