package io.ferry.rpc.benchmark.net;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The network experiments' reports, from runs' files written here: what each table row says. */
class NetReportTest {
    @TempDir
    Path dir;

    /** One NetLoad run of {@code seconds} seconds ending at epoch ms 10,000 + 1,000·(s + 1), {@code ok} calls each. */
    private void load(String name, int seconds, long... ok) throws IOException {
        StringBuilder csv = new StringBuilder("second,epoch_ms,ok,failed,p50_us,p99_us,event\n");
        long total = 0;
        for (int s = 0; s < seconds; s++) {
            csv.append(s).append(',').append(10_000 + 1_000L * (s + 1)).append(',').append(ok[s]).append(",0,100,900,\n");
            total += ok[s];
        }
        Files.writeString(dir.resolve(name + ".csv"), csv);
        Files.writeString(dir.resolve(name + ".log"), "SUMMARY ok=" + total + " failed=0 p50_us=100 p99_us=900 "
                + "p999_us=2000\n");
    }

    /** A provider's SERVED lines: {@code perSecond} calls a second from epoch ms 10,000 on. */
    private void served(String file, int seconds, long perSecond) throws IOException {
        StringBuilder log = new StringBuilder("READY 20880\n");
        for (int s = 0; s <= seconds; s++) {
            log.append("SERVED ").append(10_000 + 1_000L * s).append(' ').append(perSecond * s).append('\n');
        }
        Files.writeString(dir.resolve(file), log);
    }

    private String run(String experiment) throws IOException {
        Path out = dir.resolve("out");
        int code = NetReport.commandLine().execute(experiment, "--runs", dir.toString(), "--out", out.toString(),
                "--command", "bash rpc-benchmark/netem.sh " + experiment, "--note", "test links.");
        assertEquals(0, code);
        assertTrue(Files.exists(out.resolve("netem-" + experiment + ".png")));
        assertTrue(Files.exists(out.resolve("netem-" + experiment + ".csv")));
        return Files.readString(out.resolve("netem-" + experiment + ".md"));
    }

    @Test
    void balanceSharesAreTheCallsEachProviderServedInTheMeasuredSeconds() throws IOException {
        load("balance-ferry-adaptive", 10, 500, 500, 500, 500, 500, 500, 500, 500, 500, 500);
        served("balance-ferry-adaptive.p1.log", 12, 50);
        served("balance-ferry-adaptive.p2.log", 12, 450);

        String md = run("balance");

        assertTrue(md.startsWith("# A slow provider beside a fast one\n\nCommand: `bash rpc-benchmark/netem.sh "
                + "balance`"), md);
        assertTrue(md.contains("| Ferry, adaptive (its default) | – | 10.0 % | 90.0 % | 500 | 100 | 900 |"), md);
    }

    @Test
    void partitionRowsCompareTheSecondsAfterTheCutWithTheSecondsBefore() throws IOException {
        long[] ok = new long[25];
        java.util.Arrays.fill(ok, 1000);
        ok[5] = 500; // the cut
        ok[6] = 900;
        ok[12] = 700; // a second dip
        load("partition-ferry-adaptive-true", 25, ok);
        // second 12 runs from epoch ms 22,000 to 23,000: 00:00:22.xxx UTC on 1 January 1970
        Files.writeString(dir.resolve("partition-ferry-adaptive-true.log"), "00:00:22.500 [caller-3] WARN "
                + "OutlierDetector - 10.77.0.12:20880: ejected for 10000 ms: its probe failed\n", StandardOpenOption.APPEND);

        String md = run("partition");

        assertTrue(md.contains("| Ferry, adaptive, ejection (its defaults) | 1,000 | 500 (50 %) | 900 (90 %) "
                + "| 700 (70 %, second 12) | second 12 failed, 70 % | 0 |"), md);
    }
}
