package io.ferry.rpc.config.internal.accesslog;

import io.ferry.rpc.Ticker;
import io.ferry.rpc.testkit.StandardErrorLines;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.IntStream;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The writer on its own, with a sink a test can hold: business threads never wait for it, a full queue drops and
 * counts, drops are reported at most once an interval, and close writes everything queued.
 */
class AccessLogWriterTest {
    private final AtomicLong now = new AtomicLong();
    private final Ticker ticker = now::get;
    private final HeldSink sink = new HeldSink();

    private static AccessRecord call(int n) {
        return new AccessRecord(0, 0, new InetSocketAddress("127.0.0.1", 40000), null, "Greeter", "m" + n, "OK",
                null);
    }

    private static List<String> methods(int from, int to) {
        return IntStream.range(from, to).mapToObj(i -> "m" + i).toList();
    }

    @Test
    void aFullQueueDropsAndCountsWhileTheWriterIsStuckAndNoCallerWaits() throws Exception {
        try (AccessLogWriter writer = new AccessLogWriter("test", sink, 4, ticker)) {
            sink.hold();
            writer.offer(call(0));
            assertTrue(sink.awaitWriting(), "the writer holds m0, stuck in its write");

            // 4 fill the queue, 10 find it full: none of the 14 may wait for the stuck writer
            assertTimeoutPreemptively(Duration.ofSeconds(10), () -> IntStream.range(1, 15)
                    .forEach(i -> writer.offer(call(i))));
            assertEquals(10, writer.dropped());

            sink.release();
            writer.close();
            assertEquals(methods(0, 5), sink.methods(), "what was queued is written, in order");
            assertEquals(10, writer.dropped());
        }
    }

    @Test
    void closeWritesEverythingQueuedThenFlushesAndClosesTheSink() {
        AccessLogWriter writer = new AccessLogWriter("test", sink, 1000, ticker);
        IntStream.range(0, 500).forEach(i -> writer.offer(call(i)));
        writer.close();

        assertEquals(methods(0, 500), sink.methods());
        assertTrue(sink.flushes() > 0);
        assertTrue(sink.closed());
        writer.offer(call(500));
        assertEquals(1, writer.dropped(), "a record after close is counted, not written");
        writer.close(); // idempotent
    }

    @Test
    void aWriterNeverUsedStartsNoThreadAndStillClosesItsSink() {
        AccessLogWriter writer = new AccessLogWriter("test", sink, 4, ticker);
        writer.close();
        assertTrue(sink.closed());
        assertEquals(0, writer.dropped());
    }

    @Test
    void dropsAreReportedAtOnceThenAtMostOnceAnIntervalWithTheNumberSince() throws Exception {
        try (StandardErrorLines log = new StandardErrorLines();
             AccessLogWriter writer = new AccessLogWriter("report-test", sink, 2, ticker)) {
            dropWhileHeld(writer, 0, 3); // m0 in the write, m1 and m2 queued, m3..m5 dropped
            await().atMost(Duration.ofSeconds(10)).until(() -> reports(log).size() == 1);
            assertTrue(reports(log).get(0).contains("3 line(s) not written since the last report (3 in all)"),
                    reports(log).toString());

            dropWhileHeld(writer, 10, 2);
            await().atMost(Duration.ofSeconds(10)).until(() -> sink.methods().containsAll(methods(10, 13)));
            writer.offer(call(20)); // one more turn of the writer's loop, after the one that wrote m10..m12
            await().atMost(Duration.ofSeconds(10)).until(() -> sink.methods().contains("m20"));
            assertEquals(1, reports(log).size(), "within the interval: no second report");

            now.addAndGet(TimeUnit.SECONDS.toNanos(AccessLogWriter.DROP_REPORT_SECONDS));
            writer.offer(call(21));
            await().atMost(Duration.ofSeconds(10)).until(() -> reports(log).size() == 2);
            assertTrue(reports(log).get(1).contains("2 line(s) not written since the last report (5 in all)"),
                    reports(log).toString());
        }
    }

    /** Holds the sink with {@code first} in its write, fills the queue of 2, drops {@code drops} more, releases. */
    private void dropWhileHeld(AccessLogWriter writer, int first, int drops) throws InterruptedException {
        long before = writer.dropped();
        sink.hold();
        writer.offer(call(first));
        assertTrue(sink.awaitWriting());
        IntStream.range(first + 1, first + 3 + drops).forEach(i -> writer.offer(call(i)));
        assertEquals(before + drops, writer.dropped());
        sink.release();
    }

    private static List<String> reports(StandardErrorLines log) {
        return log.containing("access log report-test:");
    }

    @Test
    void linesTheSinkFailsToWriteAreCountedAndTheErrorReported() {
        AccessLogSink full = new AccessLogSink() {
            @Override
            public void write(String line) throws IOException {
                throw new IOException("No space left on device");
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        try (StandardErrorLines log = new StandardErrorLines()) {
            AccessLogWriter writer = new AccessLogWriter("full-disk", full, 10, ticker);
            IntStream.range(0, 3).forEach(i -> writer.offer(call(i)));
            writer.close();

            assertEquals(3, writer.dropped());
            List<String> reports = log.containing("access log full-disk:");
            assertTrue(reports.stream().anyMatch(l -> l.contains("last error: java.io.IOException: No space left"
                    + " on device")), reports.toString());
        }
    }
}
