package io.ferry.rpc.benchmark.suite.systems;

/** A system's provider of the workload, serving on a port until closed. */
public interface Provider extends AutoCloseable {
    int port();

    @Override
    void close();

    /** A provider serving on {@code port}, stopped by {@code close}. */
    static Provider of(int port, Runnable close) {
        return new Provider() {
            @Override
            public int port() {
                return port;
            }

            @Override
            public void close() {
                close.run();
            }
        };
    }
}
