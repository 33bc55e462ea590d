package io.ferry.rpc.benchmark.suite;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The suite's smoke profile, end to end, as CI runs it: each system's provider in a JVM of its own, the JMH forks
 * calling it, CPU read from /proc, the report rendered. Its numbers mean nothing (one second, no warm-up); that every
 * system answers and every figure is there does.
 */
class SuiteSmokeTest {
    @Test
    @Timeout(value = 5, unit = TimeUnit.MINUTES)
    void everySystemIsMeasuredAndReported() throws Exception {
        List<String> systems = List.of("ferry", "dubbo", "grpc", "echo");
        List<Measurement> results = new Suite(Profile.SMOKE, systems, List.of(), Suite.local(List.of())).run();
        for (String system : systems) {
            List<Measurement> own = results.stream().filter(m -> m.system().equals(system)).toList();
            assertFalse(own.isEmpty(), system + " was measured");
            for (Measurement m : own) {
                assertTrue(m.opsPerSecond() > 0, m.toString());
                assertTrue(m.cpuUsPerOp() > 0, "CPU per call from /proc: " + m);
            }
        }
        SuiteReport report = new SuiteReport(results);
        String md = report.markdown("smoke", "test", "test");
        assertTrue(md.contains("| getUser |"), md);
        assertTrue(md.contains("pipelined w=32"), md);
        assertTrue(report.csv().lines().count() == results.size() + 1);
    }

    /** Each TLS consumer, the forks' included, fails its set-up unless the provider's port refuses plain text. */
    @Test
    @Timeout(value = 5, unit = TimeUnit.MINUTES)
    void everyTlsSystemIsMeasuredOverTls() throws Exception {
        List<String> systems = List.of("ferry-tls-jdk", "ferry-tls-openssl", "dubbo-tls");
        List<Measurement> results = new Suite(Profile.SMOKE, systems, List.of(), Suite.local(List.of())).run();
        for (String system : systems) {
            assertFalse(results.stream().noneMatch(m -> m.system().equals(system)), system + " was measured");
        }
        results.forEach(m -> assertTrue(m.opsPerSecond() > 0, m.toString()));
    }
}
