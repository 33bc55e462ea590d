package io.ferry.rpc.remoting.internal.server;

import io.ferry.rpc.Invocation;
import io.ferry.rpc.Invoker;
import io.ferry.rpc.Result;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/** Calling into code that may misbehave: an invoker that throws, or returns no future, fails its call instead. */
final class Invokers {
    private Invokers() {
    }

    static CompletableFuture<Result> start(Invoker invoker, Invocation invocation) {
        try {
            CompletableFuture<Result> result = invoker.invoke(invocation);
            return result != null ? result
                    : CompletableFuture.failedFuture(new IllegalStateException("the invoker returned no future"));
        } catch (Throwable t) {
            return CompletableFuture.failedFuture(t);
        }
    }

    /** The failure itself, out of the CompletionExceptions that futures wrap it in. */
    static Throwable unwrap(Throwable error) {
        Throwable t = error;
        while (t instanceof CompletionException && t.getCause() != null) {
            t = t.getCause();
        }
        return t;
    }
}
