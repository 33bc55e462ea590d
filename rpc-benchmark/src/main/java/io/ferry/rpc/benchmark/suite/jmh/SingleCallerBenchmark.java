package io.ferry.rpc.benchmark.suite.jmh;

import io.ferry.rpc.benchmark.suite.systems.Consumer;
import io.ferry.rpc.benchmark.suite.workload.UserService;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;

/**
 * One caller making small calls one after another: what shows a stall of Nagle's algorithm meeting delayed ACK,
 * which many callers at once would hide behind each other's packets.
 */
@State(Scope.Benchmark)
@Threads(1)
public class SingleCallerBenchmark {
    @Param("ferry")
    public String system;

    private Consumer consumer;
    private UserService users;

    @Setup
    public void connect() {
        consumer = Target.consumer(system);
        users = consumer.service();
        users.existUser("ada1@example.com");
    }

    @TearDown
    public void close() {
        consumer.close();
    }

    @Benchmark
    public boolean existUser() {
        return users.existUser("ada1@example.com");
    }
}
