package io.ferry.rpc.benchmark.c10k;

import java.util.concurrent.CompletableFuture;

/** The experiment's service: the cheapest call there is, so the transport is what gets measured. */
public interface Ping {
    long ping(long value);

    /** The same call for Dubbo's consumers, which keep calls in flight through the future a method returns. */
    default CompletableFuture<Long> pingAsync(long value) {
        return CompletableFuture.completedFuture(ping(value));
    }
}
