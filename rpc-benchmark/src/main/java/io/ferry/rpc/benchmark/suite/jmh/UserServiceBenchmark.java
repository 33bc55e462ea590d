package io.ferry.rpc.benchmark.suite.jmh;

import io.ferry.rpc.benchmark.suite.systems.Consumer;
import io.ferry.rpc.benchmark.suite.workload.User;
import io.ferry.rpc.benchmark.suite.workload.UserPage;
import io.ferry.rpc.benchmark.suite.workload.UserService;
import io.ferry.rpc.benchmark.suite.workload.Users;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;

/**
 * The workload with blocking callers: 32 threads share one reference (and its connection) to a provider in another
 * JVM. The system is a parameter; the suite sets it and the provider's address.
 */
@State(Scope.Benchmark)
@Threads(32)
public class UserServiceBenchmark {
    @Param("ferry")
    public String system;

    private Consumer consumer;
    private UserService users;
    private final User created = Users.user(7);

    @Setup
    public void connect() {
        consumer = Target.consumer(system);
        users = consumer.service();
        users.getUser(1); // the connection is up before the first measured call
    }

    @TearDown
    public void close() {
        consumer.close();
    }

    @Benchmark
    public boolean existUser() {
        return users.existUser("ada1@example.com");
    }

    @Benchmark
    public boolean createUser() {
        return users.createUser(created);
    }

    @Benchmark
    public User getUser() {
        return users.getUser(1);
    }

    @Benchmark
    public UserPage listUser() {
        return users.listUser(1);
    }
}
