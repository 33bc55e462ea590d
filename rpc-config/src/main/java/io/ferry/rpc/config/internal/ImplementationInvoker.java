package io.ferry.rpc.config.internal;

import io.ferry.rpc.Invocation;
import io.ferry.rpc.Invoker;
import io.ferry.rpc.Result;

import java.lang.reflect.InvocationTargetException;
import java.util.concurrent.CompletableFuture;

/**
 * The end of a provider's chain: runs calls on the service's implementation object; a method returning a future
 * completes the call with it.
 */
public final class ImplementationInvoker implements Invoker {
    private final Object implementation;

    public ImplementationInvoker(Object implementation) {
        this.implementation = implementation;
    }

    @Override
    public CompletableFuture<Result> invoke(Invocation invocation) {
        try {
            Object result = invocation.method().invoke(implementation, invocation.arguments());
            if (result instanceof CompletableFuture<?> future) {
                return future.thenApply(Result::of);
            }
            return CompletableFuture.completedFuture(Result.of(result));
        } catch (InvocationTargetException e) {
            return CompletableFuture.failedFuture(e.getCause());
        } catch (IllegalAccessException e) {
            return CompletableFuture.failedFuture(new IllegalStateException(
                    "cannot call " + invocation.method() + " on " + implementation.getClass().getName(), e));
        }
    }
}
