package io.ferry.rpc.benchmark.suite;

/**
 * One benchmark of one system in one round: throughput with its CPU and context switches per call (both JVMs), and
 * latency percentiles in microseconds. NaN where not measured.
 *
 * @param benchmark a workload method ("getUser"), "async w=32" or "pipelined w=32"
 */
public record Measurement(String system, String benchmark, int round, double opsPerSecond, double cpuUsPerOp,
                          double ctxswPerOp, double p50, double p90, double p99, double p999) {
    Measurement withLatency(double p50, double p90, double p99, double p999) {
        return new Measurement(system, benchmark, round, opsPerSecond, cpuUsPerOp, ctxswPerOp, p50, p90, p99, p999);
    }

    static Measurement throughput(String system, String benchmark, int round, double ops, double cpu, double ctxsw) {
        return new Measurement(system, benchmark, round, ops, cpu, ctxsw, Double.NaN, Double.NaN, Double.NaN,
                Double.NaN);
    }
}
