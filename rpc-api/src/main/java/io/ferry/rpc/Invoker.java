package io.ferry.rpc;

import java.util.concurrent.CompletableFuture;

/**
 * Something that carries out an {@link Invocation}: on the consumer, the filter chain, the cluster and each
 * provider's connections; on the provider, the filter chain and the service implementation. This is the one call
 * path: synchronous, asynchronous and one-way calls are views of this future.
 */
@FunctionalInterface
public interface Invoker {
    /**
     * Starts the call and returns at once. The future completes with the {@link Result}, or exceptionally with the
     * service's own exception or an {@link RpcException}, by the invocation's deadline. Must not block.
     */
    CompletableFuture<Result> invoke(Invocation invocation);
}
