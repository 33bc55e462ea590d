package io.ferry.rpc.benchmark.suite.systems;

import io.ferry.rpc.benchmark.suite.workload.UserService;

/** A system's consumer of the workload: one reference over its default connection, shared by every caller. */
public interface Consumer extends AutoCloseable {
    UserService service();

    @Override
    void close();

    /** A consumer calling through {@code service}, released by {@code close}. */
    static Consumer of(UserService service, Runnable close) {
        return new Consumer() {
            @Override
            public UserService service() {
                return service;
            }

            @Override
            public void close() {
                close.run();
            }
        };
    }
}
