package io.ferry.rpc;

/**
 * A remote call failed for a reason of the framework's, not of the service's: the provider's own exceptions reach
 * the caller as themselves. {@link #status()} says which; {@link #isNotExecuted()} says whether the call provably
 * never ran on the provider, so that trying another provider is safe.
 */
public class RpcException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final RpcStatus status;
    private final boolean notExecuted;

    public RpcException(RpcStatus status, String message) {
        this(status, message, null);
    }

    public RpcException(RpcStatus status, String message, Throwable cause) {
        this(status, message, cause,
                status == RpcStatus.THREADPOOL_EXHAUSTED || status == RpcStatus.SHUTTING_DOWN
                        || status == RpcStatus.SERVICE_NOT_FOUND || status == RpcStatus.LIMIT_EXCEEDED
                        || status == RpcStatus.FORBIDDEN);
    }

    private RpcException(RpcStatus status, String message, Throwable cause, boolean notExecuted) {
        super(message, cause);
        this.status = status;
        this.notExecuted = notExecuted;
    }

    /**
     * A failure before the request reached the provider's service code: no connection, a failed write, a provider
     * refusing the call unrun (pool exhausted, shutting down, a wrong token).
     */
    public static RpcException notExecuted(RpcStatus status, String message, Throwable cause) {
        return new RpcException(status, message, cause, true);
    }

    /**
     * A failure after which the call may have run on the provider, whatever the status usually means (a call
     * tried on several providers, one of which may have run it).
     */
    public static RpcException mayHaveRun(RpcStatus status, String message, Throwable cause) {
        return new RpcException(status, message, cause, false);
    }

    public RpcStatus status() {
        return status;
    }

    /** True when the call provably did not run on the provider, so trying another provider is safe. */
    public boolean isNotExecuted() {
        return notExecuted;
    }

    /**
     * A copy to throw to a synchronous caller: same status, message, cause and flag, with the caller's stack as its
     * trace; this exception, with the trace of the thread where the call failed (a timer, an IO thread), is added
     * as suppressed.
     */
    public RpcException rethrownHere() {
        RpcException here = new RpcException(status, getMessage(), getCause(), notExecuted);
        here.addSuppressed(this);
        return here;
    }

    /** The message with the status in front, as {@code toString()} and stack traces show it. */
    @Override
    public String getLocalizedMessage() {
        return status + ": " + getMessage();
    }
}
