package io.ferry.rpc.benchmark.suite.systems;

import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.TimeUnit;

/**
 * gRPC-java 1.85 on its shaded Netty, protobuf messages from {@code user_service.proto}: the server on one address,
 * the consumer on one channel, plain text (HTTP/2 without TLS), as gRPC's own performance advice has it: one
 * channel and its stubs reused, and an executor that limits its threads. That executor is a ForkJoinPool with a
 * thread per core on each side, as grpc-java's own benchmark servers use; it runs the service's handlers on the
 * provider and async callbacks on the consumer. Neither side runs on its IO threads (no {@code directExecutor}):
 * Ferry's and Dubbo's providers run requests on a business pool and complete async futures off their IO threads
 * too. Blocking callers wait on gRPC's own thread-less executor and read their answer themselves. The suite's
 * tunings (IO threads, connections, Nagle) are not applied to it.
 */
public final class GrpcSystem {
    private static final long CLOSE_SECONDS = 10;

    private GrpcSystem() {
    }

    public static Provider provider(String system, String host, int port, Tuning tuning) {
        ExecutorService handlers = limitedExecutor();
        Server server = NettyServerBuilder.forAddress(new InetSocketAddress(host, port)).executor(handlers)
                .addService(new GrpcUsers()).build();
        try {
            server.start();
        } catch (IOException e) {
            handlers.shutdown();
            throw new UncheckedIOException("grpc: cannot serve on " + host + ":" + port, e);
        }
        return Provider.of(server.getPort(), () -> {
            server.shutdown();
            awaitQuietly(() -> server.awaitTermination(CLOSE_SECONDS, TimeUnit.SECONDS));
            handlers.shutdown();
        });
    }

    public static Consumer consumer(String system, String host, int port, Tuning tuning) {
        ExecutorService callbacks = limitedExecutor();
        ManagedChannel channel = NettyChannelBuilder.forAddress(host, port).usePlaintext().executor(callbacks)
                .build();
        return Consumer.of(new GrpcUserService(channel), () -> {
            channel.shutdown();
            awaitQuietly(() -> channel.awaitTermination(CLOSE_SECONDS, TimeUnit.SECONDS));
            callbacks.shutdown();
        });
    }

    /** A thread per core, work-stealing, first in first out: what grpc-java's benchmark servers run handlers on. */
    private static ExecutorService limitedExecutor() {
        return new ForkJoinPool(Runtime.getRuntime().availableProcessors(),
                ForkJoinPool.defaultForkJoinWorkerThreadFactory, null, true);
    }

    private interface Wait {
        boolean await() throws InterruptedException;
    }

    private static void awaitQuietly(Wait wait) {
        try {
            wait.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
