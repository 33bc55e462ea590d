package io.ferry.rpc.benchmark.suite.systems;

/** A system's provider of the workload, serving on a port until closed. */
public interface Provider extends AutoCloseable {
    int port();

    @Override
    void close();
}
