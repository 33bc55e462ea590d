package io.ferry.rpc.benchmark.suite.jmh;

import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.profile.InternalProfiler;
import org.openjdk.jmh.results.AggregationPolicy;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.ScalarResult;
import org.openjdk.jmh.runner.IterationType;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * CPU time and context switches per operation, from {@code /proc}, for both JVMs of a measurement: this benchmark
 * fork (the consumer) and the provider ({@code -Dbench.providerPid}). Measured over each measurement iteration of a
 * throughput run (ops = score × the iteration's wall time); user and system time together, so the kernel's share
 * of every syscall counts. Linux only; elsewhere it reports nothing.
 */
public class ProcCpuProfiler implements InternalProfiler {
    /** Clock ticks per second of /proc's times: 100 on every Linux this runs on (USER_HZ). */
    private static final double TICKS_PER_SECOND = 100;

    private long startNanos;
    private long consumerTicks;
    private long providerTicks;
    private long switches;

    @Override
    public String getDescription() {
        return "CPU µs and context switches per operation, consumer and provider JVMs, from /proc";
    }

    private static long providerPid() {
        return Long.getLong("bench.providerPid", -1);
    }

    @Override
    public void beforeIteration(BenchmarkParams benchmarkParams, IterationParams iterationParams) {
        consumerTicks = ticks(ProcessHandle.current().pid());
        providerTicks = ticks(providerPid());
        switches = contextSwitches(ProcessHandle.current().pid()) + contextSwitches(providerPid());
        startNanos = System.nanoTime();
    }

    @Override
    public Collection<? extends Result> afterIteration(BenchmarkParams benchmarkParams,
                                                       IterationParams iterationParams, IterationResult result) {
        double seconds = (System.nanoTime() - startNanos) / 1e9;
        long consumer = ticks(ProcessHandle.current().pid()) - consumerTicks;
        long provider = ticks(providerPid()) - providerTicks;
        long switched = contextSwitches(ProcessHandle.current().pid()) + contextSwitches(providerPid()) - switches;
        if (iterationParams.getType() != IterationType.MEASUREMENT || consumerTicks < 0
                || !benchmarkParams.getMode().name().equals("Throughput")) {
            return List.of();
        }
        double opsPerSecond = result.getPrimaryResult().getScore()
                / benchmarkParams.getTimeUnit().toNanos(1) * TimeUnit.SECONDS.toNanos(1);
        double ops = opsPerSecond * seconds;
        if (ops <= 0) {
            return List.of();
        }
        double consumerUs = consumer / TICKS_PER_SECOND * 1e6 / ops;
        double providerUs = providerTicks < 0 ? Double.NaN : provider / TICKS_PER_SECOND * 1e6 / ops;
        return List.of(
                new ScalarResult("cpu", consumerUs + (Double.isNaN(providerUs) ? 0 : providerUs), "us/op",
                        AggregationPolicy.AVG),
                new ScalarResult("cpu.consumer", consumerUs, "us/op", AggregationPolicy.AVG),
                new ScalarResult("cpu.provider", providerUs, "us/op", AggregationPolicy.AVG),
                new ScalarResult("ctxsw", switched / ops, "#/op", AggregationPolicy.AVG));
    }

    /** utime + stime of a process, in clock ticks; -1 when it cannot be read. */
    static long ticks(long pid) {
        if (pid <= 0) {
            return -1;
        }
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
            // fields after the command name, which is in parentheses and may hold spaces
            String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    /** Voluntary and involuntary context switches of every thread of a process. */
    static long contextSwitches(long pid) {
        if (pid <= 0) {
            return 0;
        }
        long total = 0;
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(Path.of("/proc", Long.toString(pid), "task"))) {
            for (Path task : tasks) {
                try {
                    for (String line : Files.readAllLines(task.resolve("status"))) {
                        if (line.startsWith("voluntary_ctxt_switches:")
                                || line.startsWith("nonvoluntary_ctxt_switches:")) {
                            total += Long.parseLong(line.substring(line.indexOf(':') + 1).trim());
                        }
                    }
                } catch (IOException e) {
                    // the thread ended meanwhile
                }
            }
        } catch (IOException e) {
            return 0;
        }
        return total;
    }
}
