package io.ferry.rpc.remoting.internal.server;

import io.ferry.rpc.RpcException;
import io.ferry.rpc.RpcStatus;

/**
 * A provider filter's refusal of a call it did not run: answered with its status and message as an error frame,
 * never as an exception value, so the consumer sees the status and knows it may try another provider.
 */
final class ProviderRefusal extends RpcException {
    private static final long serialVersionUID = 1L;

    ProviderRefusal(RpcStatus status, String message) {
        super(status, message);
    }

    @Override
    public boolean isNotExecuted() {
        return true;
    }

    /** Whether {@code thrown} is answered as a status: a refusal, or a concurrency limit's (from rpc-config). */
    static boolean answersWithStatus(Throwable thrown) {
        return thrown instanceof ProviderRefusal
                || thrown instanceof RpcException limit && limit.status() == RpcStatus.LIMIT_EXCEEDED;
    }
}
