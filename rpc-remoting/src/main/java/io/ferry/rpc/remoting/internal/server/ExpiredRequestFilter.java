package io.ferry.rpc.remoting.internal.server;

import io.ferry.rpc.Deadline;
import io.ferry.rpc.Filter;
import io.ferry.rpc.Invocation;
import io.ferry.rpc.Invoker;
import io.ferry.rpc.ProviderRefusal;
import io.ferry.rpc.Result;
import io.ferry.rpc.RpcStatus;

import java.util.concurrent.CompletableFuture;

/**
 * Drops a request whose caller has given up (or is about to) before it runs: running it now would only take a
 * thread from a live call. Answered {@code TIMEOUT}, not executed.
 */
final class ExpiredRequestFilter implements Filter {
    static final ExpiredRequestFilter INSTANCE = new ExpiredRequestFilter();

    private ExpiredRequestFilter() {
    }

    @Override
    public CompletableFuture<Result> invoke(Invocation invocation, Invoker next) {
        Deadline deadline = invocation.deadline();
        if (deadline.isExpired()) {
            return CompletableFuture.failedFuture(new ProviderRefusal(RpcStatus.TIMEOUT, RpcStatus.EXPIRED_PREFIX
                    + invocation.description() + " waited " + deadline.elapsedMillis() + " ms on the provider, past"
                    + " the " + deadline.timeoutMillis() + " ms its caller had left"));
        }
        return next.invoke(invocation);
    }
}
