package io.ferry.rpc.benchmark.c10k;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The C10K harness end to end at a small scale, with either system's consumers: a provider process of its own,
 * calls every second, the per-second CSV and the summary written.
 */
class C10kExperimentTest {
    private static final int CONNECTIONS = 16;
    private static final int RATE = 16;
    private static final int SECONDS = 3;

    @ParameterizedTest(name = "{0} consumers")
    @ValueSource(strings = {"ferry", "dubbo"})
    @Timeout(value = 2, unit = TimeUnit.MINUTES)
    void everyCallIsAnsweredAndEverySecondReported(String consumer, @TempDir Path dir) throws Exception {
        Path out = dir.resolve("run");
        C10kExperiment.run("scenario=steady", "consumer=" + consumer, "connections=" + CONNECTIONS, "rate=" + RATE,
                "seconds=" + SECONDS, "heartbeatMs=1000", "out=" + out);

        List<String> lines = Files.readAllLines(Path.of(out + ".csv"));
        assertEquals("second,calls_ok,calls_failed,p50_us,p99_us,heartbeats,ready_connections", lines.get(0));
        List<long[]> rows = lines.subList(1, lines.size()).stream()
                .map(l -> Arrays.stream(l.split(",")).mapToLong(Long::parseLong).toArray()).toList();
        assertEquals(SECONDS, rows.size(), "one row a second");
        long ok = rows.stream().mapToLong(r -> r[1]).sum();
        long failed = rows.stream().mapToLong(r -> r[2]).sum();
        assertEquals(0, failed, "no call failed against a healthy provider");
        assertTrue(ok >= (long) RATE * (SECONDS - 1), ok + " calls answered");
        assertEquals(CONNECTIONS, rows.stream().mapToLong(r -> r[6]).max().orElse(0), "every connection ready");
        String summary = Files.readString(Path.of(out + ".md"));
        assertTrue(summary.contains(consumer + " consumers"), summary);
    }
}
