package io.ferry.rpc.remoting.internal.server;

import io.ferry.rpc.Filter;
import io.ferry.rpc.Invocation;
import io.ferry.rpc.Invoker;
import io.ferry.rpc.PeerIdentity;
import io.ferry.rpc.Result;
import io.ferry.rpc.RpcContext;
import io.ferry.rpc.spi.ContextPlumbing;

import java.net.SocketAddress;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * The first provider filter: fills the business thread's {@link RpcContext} for the call (attachments, deadline,
 * the consumer's address and verified identity) while the rest of the chain starts it, clears it after, and carries the response
 * attachments the call set into its result, or into its failure as an {@link AttachedFailure}. One per request.
 */
final class ContextFilter implements Filter {
    private final SocketAddress remote;
    private final PeerIdentity identity;

    /** {@code identity}: the consumer's verified certificate identity, or null without mutual TLS. */
    ContextFilter(SocketAddress remote, PeerIdentity identity) {
        this.remote = remote;
        this.identity = identity;
    }

    @Override
    public CompletableFuture<Result> invoke(Invocation invocation, Invoker next) {
        RpcContext context = RpcContext.current();
        ContextPlumbing.enterProviderCall(context, invocation.attachments(), invocation.deadline(), remote,
                identity);
        CompletableFuture<Result> result;
        Map<String, Object> set;
        try {
            result = Invokers.start(next, invocation);
        } finally {
            set = ContextPlumbing.exitProviderCall(context);
        }
        if (set.isEmpty()) {
            return result;
        }
        return result.handle((value, error) -> {
            if (error != null) {
                throw new AttachedFailure(Invokers.unwrap(error), set);
            }
            return new Result(value.value(), merged(set, value.attachments()));
        });
    }

    /** The result's own attachments win over those set through the context. */
    private static Map<String, Object> merged(Map<String, Object> fromContext, Map<String, Object> fromResult) {
        if (fromResult.isEmpty()) {
            return fromContext;
        }
        Map<String, Object> all = new HashMap<>(fromContext);
        all.putAll(fromResult);
        return all;
    }

    /** A call's failure with the response attachments it set before failing: both go back to the consumer. */
    static final class AttachedFailure extends RuntimeException {
        private static final long serialVersionUID = 1L;
        final transient Map<String, Object> attachments;

        AttachedFailure(Throwable failure, Map<String, Object> attachments) {
            super(failure.getMessage(), failure, false, false);
            this.attachments = attachments;
        }
    }
}
