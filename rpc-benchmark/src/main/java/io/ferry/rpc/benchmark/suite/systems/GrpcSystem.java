package io.ferry.rpc.benchmark.suite.systems;

import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * gRPC-java 1.85 on its shaded Netty, protobuf messages from {@code user_service.proto}: the server on one address,
 * the consumer on one channel, plain text (HTTP/2 without TLS), as gRPC's own performance advice has it: one
 * channel and its stubs reused, and an executor that limits its threads. That executor is a ForkJoinPool with a
 * thread per core on each side, as grpc-java's own benchmark servers use; it runs the service's handlers on the
 * provider and async callbacks on the consumer. Neither side runs on its IO threads (no {@code directExecutor}):
 * Ferry's and Dubbo's providers run requests on a business pool and complete async futures off their IO threads
 * too. Blocking callers wait on gRPC's own thread-less executor and read their answer themselves. The suite's
 * tunings (IO threads, connections, Nagle) are not applied to it; {@code -Dbench.grpc.executor} sets another
 * executor ({@link GrpcExecutor}) to compare the choice.
 */
public final class GrpcSystem {
    private static final long CLOSE_SECONDS = 10;

    private GrpcSystem() {
    }

    public static Provider provider(String system, String host, int port, Tuning tuning) {
        GrpcExecutor executor = GrpcExecutor.fromSystemProperties();
        ExecutorService handlers = executor.newPool();
        NettyServerBuilder builder = NettyServerBuilder.forAddress(new InetSocketAddress(host, port))
                .addService(new GrpcUsers());
        if (executor == GrpcExecutor.DIRECT) {
            builder.directExecutor();
        } else if (handlers != null) {
            builder.executor(handlers);
        }
        Server server = builder.build();
        try {
            server.start();
        } catch (IOException e) {
            shutdown(handlers);
            throw new UncheckedIOException("grpc: cannot serve on " + host + ":" + port, e);
        }
        return Provider.of(server.getPort(), () -> {
            server.shutdown();
            awaitQuietly(() -> server.awaitTermination(CLOSE_SECONDS, TimeUnit.SECONDS));
            shutdown(handlers);
        });
    }

    public static Consumer consumer(String system, String host, int port, Tuning tuning) {
        GrpcExecutor executor = GrpcExecutor.fromSystemProperties();
        ExecutorService callbacks = executor.newPool();
        NettyChannelBuilder builder = NettyChannelBuilder.forAddress(host, port).usePlaintext();
        if (executor == GrpcExecutor.DIRECT) {
            builder.directExecutor();
        } else if (callbacks != null) {
            builder.executor(callbacks);
        }
        ManagedChannel channel = builder.build();
        return Consumer.of(new GrpcUserService(channel), () -> {
            channel.shutdown();
            awaitQuietly(() -> channel.awaitTermination(CLOSE_SECONDS, TimeUnit.SECONDS));
            shutdown(callbacks);
        });
    }

    private static void shutdown(ExecutorService pool) {
        if (pool != null) {
            pool.shutdown();
        }
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
