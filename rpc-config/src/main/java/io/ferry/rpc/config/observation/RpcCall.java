package io.ferry.rpc.config.observation;

import io.ferry.rpc.Invocation;

/** What either side's observation of a call knows of it: {@link RpcClientContext}, {@link RpcServerContext}. */
public interface RpcCall {
    /** The call: service, method, deadline; its arguments are the caller's data and are never tags. */
    Invocation invocation();

    /**
     * {@value RpcObservations#OK}, {@value RpcObservations#EXCEPTION} (the service's own exception) or the name of
     * the {@link io.ferry.rpc.RpcStatus} that failed the call; null while it runs.
     */
    String status();

    /** Set once, when the call ends. */
    void status(String status);
}
