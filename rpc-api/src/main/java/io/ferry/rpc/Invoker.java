package io.ferry.rpc;

import java.util.concurrent.CompletableFuture;

/**
 * Something that can carry out an {@link Invocation}: a remote provider seen from the consumer, or the service
 * implementation seen from the provider. The one call path: sync, async and one-way are views of this future.
 */
@FunctionalInterface
public interface Invoker {
    /**
     * Starts the call. The future completes with the method's return value (null for void), or exceptionally with
     * the service's own exception or an {@link RpcException}. Must not block.
     */
    CompletableFuture<Object> invoke(Invocation invocation);
}
