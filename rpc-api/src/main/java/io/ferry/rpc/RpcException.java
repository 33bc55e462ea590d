package io.ferry.rpc;

/**
 * A remote call failed for a reason of the framework's, not of the service's: the provider's own exceptions reach
 * the caller as themselves. {@link #status()} says which.
 */
public class RpcException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final RpcStatus status;

    public RpcException(RpcStatus status, String message) {
        super(message);
        this.status = status;
    }

    public RpcException(RpcStatus status, String message, Throwable cause) {
        super(message, cause);
        this.status = status;
    }

    public RpcStatus status() {
        return status;
    }

    /** True when the call provably did not run on the provider, so trying another provider is safe. */
    public boolean isNotExecuted() {
        return status == RpcStatus.THREADPOOL_EXHAUSTED;
    }

    /** The message with the status in front, as {@code toString()} and stack traces show it. */
    @Override
    public String getLocalizedMessage() {
        return status + ": " + getMessage();
    }
}
