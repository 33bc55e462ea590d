package io.ferry.rpc.benchmark.suite.systems;

import io.ferry.rpc.benchmark.suite.workload.UserService;

/** A system's consumer of the workload: one reference over its default connection, shared by every caller. */
public interface Consumer extends AutoCloseable {
    UserService service();

    @Override
    void close();
}
