package io.ferry.rpc.benchmark.suite.systems;

import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ForkJoinPool;

/**
 * Where the grpc system runs its server handlers and its consumer's async callbacks, from
 * {@code -Dbench.grpc.executor}, so that one suite run can set the suite's choice beside the others
 * ({@code --systems grpc,grpc@bench.grpc.executor=cached,grpc@bench.grpc.executor=direct}).
 */
enum GrpcExecutor {
    /** The suite's choice: a ForkJoinPool of a thread per core, as grpc-java's own benchmark server uses. */
    FORKJOIN,
    /** gRPC's default when given no executor: its shared cached thread pool. */
    CACHED,
    /** {@code directExecutor()}: on the transport's IO threads, which Ferry and Dubbo do not do by default. */
    DIRECT;

    static GrpcExecutor fromSystemProperties() {
        String name = System.getProperty("bench.grpc.executor", "forkjoin");
        try {
            return valueOf(name.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("bench.grpc.executor: " + name
                    + " (expected: forkjoin, cached or direct)", e);
        }
    }

    /** A pool of its own to hand gRPC and shut down after it, or null when gRPC keeps its default or runs direct. */
    ExecutorService newPool() {
        return this == FORKJOIN ? new ForkJoinPool(Runtime.getRuntime().availableProcessors(),
                ForkJoinPool.defaultForkJoinWorkerThreadFactory, null, true) : null;
    }
}
