package io.ferry.rpc.benchmark.suite.jmh;

import io.ferry.rpc.benchmark.suite.systems.EchoSystem;
import io.ferry.rpc.benchmark.suite.systems.FrameSizes;
import io.ferry.rpc.benchmark.suite.systems.Tuning;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;

import java.util.concurrent.Semaphore;

/**
 * The transport's ceiling for asynchronous calls: getUser's bytes pipelined from the event loop itself, which
 * answers every answer with a new request so that {@code window} stay in flight, flushing once per read batch. The
 * measuring thread only counts answers, {@value #BATCH} at a time.
 */
@State(Scope.Benchmark)
@Threads(1)
@OperationsPerInvocation(PipelinedEchoBenchmark.BATCH)
public class PipelinedEchoBenchmark {
    static final int BATCH = 64;

    /** Always the echo: the suite passes every benchmark its system. */
    @Param("echo")
    public String system;

    @Param("32")
    public int window;

    private EchoSystem.EchoClient client;
    private final Semaphore answers = new Semaphore(0);
    private volatile boolean running = true;

    @Setup
    public void connect() {
        FrameSizes.Size size = FrameSizes.measure().get("getUser");
        client = new EchoSystem.EchoClient(Target.host(), Target.port(), Tuning.fromSystemProperties());
        client.channel().eventLoop().execute(() -> {
            for (int i = 0; i < window; i++) {
                client.call(size.request(), size.response()).thenRun(() -> next(size));
            }
            client.channel().flush();
        });
    }

    private void next(FrameSizes.Size size) {
        answers.release();
        if (running) {
            client.call(size.request(), size.response()).thenRun(() -> next(size));
        }
    }

    @TearDown
    public void close() {
        running = false;
        client.close();
    }

    @Benchmark
    public void answers() throws InterruptedException {
        answers.acquire(BATCH);
    }
}
