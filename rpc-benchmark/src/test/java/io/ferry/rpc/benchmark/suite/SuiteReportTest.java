package io.ferry.rpc.benchmark.suite;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What the report makes of the TLS and observability rows: the ratios whose systems both ran, and each target met
 * or missed.
 */
class SuiteReportTest {
    private static Measurement ops(String system, String benchmark, double opsPerSecond) {
        return Measurement.throughput(system, benchmark, 0, opsPerSecond, 10, 1);
    }

    private static List<Measurement> tlsRun(double dubboTls) {
        List<Measurement> all = new ArrayList<>();
        for (String b : List.of("getUser", "listUser", "async w=32")) {
            all.add(ops("ferry", b, 40_000));
            all.add(ops("ferry-tls-jdk", b, 30_000));
            all.add(ops("ferry-tls-openssl", b, 32_000));
            all.add(ops("dubbo-tls", b, dubboTls));
        }
        return all;
    }

    @Test
    void theTlsRatiosAppearAndThePlainOnesWithoutTheirSystemsDoNot() {
        String md = new SuiteReport(tlsRun(10_000)).markdown("t", "c", "s");

        assertTrue(md.contains("| getUser | 40,000 · – · 10.0 | 30,000 · – · 10.0 | 32,000 · – · 10.0 | 10,000 · – · "
                + "10.0 | 3.00 | 3.20 | 0.75 | 0.80 |"), md);
        assertFalse(md.contains("best Dubbo") || md.contains("echo ops/s"), md);
    }

    @Test
    void eachTargetSaysItsLowestRatioAndWhetherItIsMet() {
        String met = new SuiteReport(tlsRun(10_000)).markdown("t", "c", "s");
        String missed = new SuiteReport(tlsRun(16_000)).markdown("t", "c", "s");

        assertTrue(met.contains("lowest 3.00 (getUser, JDK): met"), met);
        assertTrue(met.contains("getUser 0.80 OpenSSL; async w=32 0.80 OpenSSL; lowest 0.80 (getUser, OpenSSL): met"),
                met);
        assertTrue(missed.contains("lowest 1.88 (getUser, JDK): **missed**"), missed);
    }

    @Test
    void aRunWithoutTlsRowsHasNoTargets() {
        String md = new SuiteReport(List.of(ops("ferry", "getUser", 1), ops("dubbo", "getUser", 1)))
                .markdown("t", "c", "s");

        assertFalse(md.contains("TLS"), md);
        assertTrue(md.contains("Ferry / best Dubbo ops/s"), md);
    }

    @Test
    void theObservabilityRowsSayWhatObservingCosts() {
        List<Measurement> run = new ArrayList<>();
        for (String b : List.of("getUser", "listUser", "async w=32")) {
            run.add(ops("ferry", b, 100_000));
            run.add(ops("ferry-metrics", b, b.equals("listUser") ? 80_000 : 96_000));
            run.add(ops("ferry-tracing", b, b.equals("async w=32") ? 88_000 : 92_000));
        }
        String md = new SuiteReport(run).markdown("t", "c", "s");

        assertTrue(md.contains("Ferry metrics / Ferry plain ops/s | Ferry tracing / Ferry plain ops/s |"), md);
        assertTrue(md.contains("metrics cost ≤ 5 % ops/s on getUser (≥ 0.95×): getUser 0.96 metrics; async w=32 "
                + "0.96 metrics; lowest 0.96 (getUser, metrics): met"), md);
        assertTrue(md.contains("lowest 0.88 (async w=32, tracing): **missed**"), md);
        assertFalse(md.contains("TLS"), md);
    }
}
