package io.ferry.rpc.config.internal.cluster;

import io.ferry.rpc.cluster.Directory;

/** A reference's providers, which the reference closes with itself, and which can say when one is ready. */
public interface ClusterDirectory extends Directory, AutoCloseable {
    /** Null once a provider is ready; else, after {@code timeoutNanos}, why not (what was tried). */
    String awaitReady(long timeoutNanos) throws InterruptedException;

    @Override
    void close();
}
