package io.ferry.rpc.config.internal;

import io.ferry.rpc.remoting.OutboundCall;
import io.ferry.rpc.remoting.ProviderClient;
import io.ferry.rpc.remoting.internal.exchange.Reply;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;

/** Every call to one provider address, given by the reference's url. */
public final class DirectTarget implements CallTarget {
    private final ProviderClient client;

    public DirectTarget(ProviderClient client) {
        this.client = client;
    }

    @Override
    public CompletableFuture<Reply> invoke(OutboundCall call, Executor executor) {
        return client.invoke(call, executor);
    }

    @Override
    public String describe() {
        return String.valueOf(client.address());
    }

    @Override
    public void close() {
        client.close();
    }
}
