package io.ferry.rpc.remoting.internal.server;

import io.ferry.rpc.Deadline;
import io.ferry.rpc.Filter;
import io.ferry.rpc.Invocation;
import io.ferry.rpc.Invoker;
import io.ferry.rpc.ProviderRefusal;
import io.ferry.rpc.Result;
import io.ferry.rpc.RpcStatus;
import io.ferry.rpc.remoting.internal.service.ServiceCounters;

import java.util.concurrent.CompletableFuture;

/**
 * Drops a request whose caller has given up (or is about to) before it runs: running it now would only take a
 * thread from a live call. Answered {@code TIMEOUT}, not executed, and counted in its service's counters.
 */
final class ExpiredRequestFilter implements Filter {
    private final ServiceCounters counters;

    ExpiredRequestFilter(ServiceCounters counters) {
        this.counters = counters;
    }

    @Override
    public CompletableFuture<Result> invoke(Invocation invocation, Invoker next) {
        Deadline deadline = invocation.deadline();
        if (deadline.isExpired()) {
            counters.droppedExpired();
            return CompletableFuture.failedFuture(new ProviderRefusal(RpcStatus.TIMEOUT, RpcStatus.EXPIRED_PREFIX
                    + invocation.description() + " waited " + deadline.elapsedMillis() + " ms on the provider, past"
                    + " the " + deadline.timeoutMillis() + " ms its caller had left"));
        }
        return next.invoke(invocation);
    }
}
