package io.ferry.rpc.config.internal.cluster;

import io.ferry.rpc.Invocation;
import io.ferry.rpc.Result;
import io.ferry.rpc.remoting.ProviderEndpoint;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * A provider's endpoint with no connection behind it: ready at {@code address}, weight 100, nothing in flight; a
 * test overrides what it drives (its calls, its connect attempts).
 */
class StubProvider implements ProviderEndpoint {
    final String address;
    volatile boolean ready = true;

    StubProvider(String address) {
        this.address = address;
    }

    @Override
    public CompletableFuture<Result> invoke(Invocation invocation) {
        throw new UnsupportedOperationException("this stub takes no calls");
    }

    @Override
    public InetSocketAddress socketAddress() {
        int colon = address.lastIndexOf(':');
        return new InetSocketAddress(address.substring(0, colon), Integer.parseInt(address.substring(colon + 1)));
    }

    @Override
    public String address() {
        return address;
    }

    @Override
    public int weight() {
        return 100;
    }

    @Override
    public boolean isReady() {
        return ready;
    }

    @Override
    public CompletableFuture<Void> whenReady() {
        return CompletableFuture.completedFuture(null);
    }

    @Override
    public int openConnections() {
        return ready ? 1 : 0;
    }

    @Override
    public Set<Thread> ioThreads() {
        return Set.of();
    }

    @Override
    public int pendingCalls() {
        return 0;
    }

    @Override
    public void reconnectSoon(Duration spread) {
    }

    @Override
    public void close() {
    }
}
