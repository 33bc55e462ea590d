package io.ferry.rpc.config.internal;

import io.ferry.rpc.remoting.OutboundCall;
import io.ferry.rpc.remoting.internal.exchange.Reply;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;

/** Where a reference's calls go: one provider address, or the providers a registry knows. */
public interface CallTarget extends AutoCloseable {
    /** Sends the call; the future completes on {@code executor} within the call's timeout. */
    CompletableFuture<Reply> invoke(OutboundCall call, Executor executor);

    /** For a proxy's toString: where calls go. */
    String describe();

    @Override
    void close();
}
