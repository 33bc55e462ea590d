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

import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Asynchronous callers: 4 threads keep {@code window} getUser calls in flight in all through the futures the
 * service returns; each operation starts one call once a place in the window is free. Beside the pipelined echo
 * at the same window, it shows what the async path costs over the transport.
 */
@State(Scope.Benchmark)
@Threads(4)
public class AsyncBenchmark {
    @Param("ferry")
    public String system;

    @Param("32")
    public int window;

    private Consumer consumer;
    private UserService users;
    private Semaphore places;
    private final AtomicLong failures = new AtomicLong();

    @Setup
    public void connect() {
        consumer = Target.consumer(system);
        users = consumer.service();
        users.getUser(1);
        places = new Semaphore(window);
    }

    @TearDown
    public void close() throws InterruptedException {
        boolean drained = places.tryAcquire(window, 30, TimeUnit.SECONDS);
        consumer.close();
        if (!drained || failures.get() > 0) {
            throw new IllegalStateException(failures.get() + " async calls failed"
                    + (drained ? "" : "; some never completed"));
        }
    }

    @Benchmark
    public void getUserAsync() throws InterruptedException {
        places.acquire();
        users.getUserAsync(1).whenComplete((user, error) -> {
            if (error != null) {
                failures.incrementAndGet();
            }
            places.release();
        });
    }
}
