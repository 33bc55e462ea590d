package io.ferry.rpc.config.internal.cluster;

import io.ferry.rpc.Invocation;
import io.ferry.rpc.Result;
import io.ferry.rpc.cluster.Endpoint;
import io.ferry.rpc.cluster.EndpointStats;

import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

/** A provider for cluster tests: its answers come from a script, its stats are set by the test. */
final class FakeEndpoint implements Endpoint, EndpointStats {
    final String address;
    final int weight;
    final Function<Invocation, CompletableFuture<Result>> script;
    volatile boolean ready = true;
    volatile int active;
    volatile double latencyNanos;
    int calls;

    FakeEndpoint(String address, int weight, Function<Invocation, CompletableFuture<Result>> script) {
        this.address = address;
        this.weight = weight;
        this.script = script;
    }

    /** Answers every call with its own address. */
    static FakeEndpoint answering(String address, int weight) {
        return new FakeEndpoint(address, weight, i -> CompletableFuture.completedFuture(Result.of(address)));
    }

    @Override
    public synchronized CompletableFuture<Result> invoke(Invocation invocation) {
        calls++;
        return script.apply(invocation);
    }

    @Override
    public String address() {
        return address;
    }

    @Override
    public int weight() {
        return weight;
    }

    @Override
    public boolean isReady() {
        return ready;
    }

    @Override
    public EndpointStats stats() {
        return this;
    }

    @Override
    public int active() {
        return active;
    }

    @Override
    public double latencyNanos() {
        return latencyNanos;
    }

    @Override
    public long succeeded() {
        return 0;
    }

    @Override
    public long failed() {
        return 0;
    }

    @Override
    public String toString() {
        return address;
    }
}
