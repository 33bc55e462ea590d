package io.ferry.rpc;

/**
 * A provider filter's refusal of a call it did not run (a limit reached, a request expired, a caller not allowed):
 * the provider answers it as an error frame with its status, never as an exception value, so the consumer sees the
 * status and knows it may try another provider. Only the type says so: an {@link RpcException} of the same status
 * that a service throws (one its own outbound call failed with, say) still goes back as the service's exception,
 * since the service did run.
 * <pre>{@code
 * Filter onlyKnownCallers = (invocation, next) -> known(RpcContext.current().remoteAddress()) ? next.invoke(invocation)
 *         : CompletableFuture.failedFuture(new ProviderRefusal(RpcStatus.SERVICE_ERROR, "not for this caller"));
 * }</pre>
 */
public final class ProviderRefusal extends RpcException {
    private static final long serialVersionUID = 1L;

    public ProviderRefusal(RpcStatus status, String message) {
        super(status, message);
    }

    /** Always: a refused call did not run. */
    @Override
    public boolean isNotExecuted() {
        return true;
    }
}
