package io.ferry.rpc.config.internal.observation;

import io.ferry.rpc.RpcException;
import io.ferry.rpc.config.observation.RpcObservations;

import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

/** How a call ended, in the few words a tag may take. */
final class CallOutcome {
    private CallOutcome() {
    }

    /** The failure itself, out of the wrappers a future puts around it. */
    static Throwable unwrap(Throwable error) {
        Throwable t = error;
        while ((t instanceof CompletionException || t instanceof ExecutionException) && t.getCause() != null) {
            t = t.getCause();
        }
        return t;
    }

    /** OK, the {@link io.ferry.rpc.RpcStatus} that failed the call, or EXCEPTION for the service's own. */
    static String status(Throwable unwrapped) {
        if (unwrapped == null) {
            return RpcObservations.OK;
        }
        return unwrapped instanceof RpcException rpc ? rpc.status().name() : RpcObservations.EXCEPTION;
    }
}
