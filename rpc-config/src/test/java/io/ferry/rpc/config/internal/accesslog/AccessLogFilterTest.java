package io.ferry.rpc.config.internal.accesslog;

import io.ferry.rpc.Deadline;
import io.ferry.rpc.Invocation;
import io.ferry.rpc.ProviderRefusal;
import io.ferry.rpc.Result;
import io.ferry.rpc.RpcStatus;
import io.ferry.rpc.Ticker;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The filter on a business thread: what it records, and that a stuck writer never holds the call. */
class AccessLogFilterTest {
    interface Greeter {
        String greet(String name);
    }

    private final AtomicLong now = new AtomicLong();
    private final Ticker ticker = now::get;
    private final Clock wall = Clock.fixed(Instant.parse("2025-05-01T10:00:00.123Z"), ZoneOffset.UTC);
    private final HeldSink sink = new HeldSink();

    private static Invocation greet(String name) throws Exception {
        return new Invocation(Greeter.class.getName(), "1.0", "", Greeter.class.getMethod("greet", String.class),
                new Object[] {name}, Map.of("token", "s3cret"), Deadline.none(), false, null);
    }

    @Test
    void aCallIsRecordedWithItsDurationAndStatusButNoArgumentUnlessAsked() throws Exception {
        try (AccessLogWriter writer = new AccessLogWriter("test", sink, 16, ticker)) {
            AccessLogFilter filter = new AccessLogFilter(writer, false, ticker, wall);
            CompletableFuture<Result> answer = new CompletableFuture<>();
            CompletableFuture<Result> returned = filter.invoke(greet("Ada"), invocation -> answer);
            now.addAndGet(Duration.ofMillis(3).toNanos());
            answer.complete(Result.of("hi"));
            assertSame(answer, returned, "the chain's own future, not a stage added to it");

            new AccessLogFilter(writer, true, ticker, wall).invoke(greet("Bob"), invocation -> CompletableFuture
                    .failedFuture(new ProviderRefusal(RpcStatus.FORBIDDEN, "Invalid token!")));
            new AccessLogFilter(writer, false, ticker, wall).invoke(greet("Cy"), invocation -> {
                throw new IllegalStateException("thrown, not returned");
            });
            writer.close();
        }
        assertEquals(java.util.List.of(
                "2025-05-01T10:00:00.123Z from=null service=io.ferry.rpc.config.internal.accesslog."
                        + "AccessLogFilterTest$Greeter:1.0 method=greet status=OK micros=3000",
                "2025-05-01T10:00:00.123Z from=null service=io.ferry.rpc.config.internal.accesslog."
                        + "AccessLogFilterTest$Greeter:1.0 method=greet status=FORBIDDEN micros=0 args=[\"Bob\"]",
                "2025-05-01T10:00:00.123Z from=null service=io.ferry.rpc.config.internal.accesslog."
                        + "AccessLogFilterTest$Greeter:1.0 method=greet status=java.lang.IllegalStateException"
                        + " micros=0"), sink.lines());
        assertTrue(sink.lines().stream().noneMatch(l -> l.contains("s3cret")), "attachments are never read");
    }

    @Test
    void aBusinessThreadNeverWaitsForAStuckWriterItsRecordsAreDroppedAndCounted() throws Exception {
        try (AccessLogWriter writer = new AccessLogWriter("test", sink, 4, ticker)) {
            AccessLogFilter filter = new AccessLogFilter(writer, true, ticker, wall);
            sink.hold();
            filter.invoke(greet("first"), invocation -> CompletableFuture.completedFuture(Result.of("ok")));
            assertTrue(sink.awaitWriting(), "the writer is stuck writing the first line");

            assertTimeoutPreemptively(Duration.ofSeconds(10), () -> {
                for (int i = 0; i < 100; i++) {
                    assertEquals("ok", filter.invoke(greet("n" + i), invocation -> CompletableFuture
                            .completedFuture(Result.of("ok"))).join().value());
                }
            });
            assertEquals(96, writer.dropped(), "4 queued behind the stuck one, the rest dropped");
            sink.release();
        }
        assertEquals(5, sink.lines().size());
    }

    @Test
    void theStatusIsOkAnRpcStatusOrTheClassOfWhatTheServiceThrew() {
        assertEquals("OK", AccessLogFilter.status(null));
        assertEquals("TIMEOUT", AccessLogFilter.status(new CompletionException(new ProviderRefusal(
                RpcStatus.TIMEOUT, "expired"))));
        assertEquals("java.lang.ArithmeticException", AccessLogFilter.status(new CompletionException(
                new ArithmeticException())));
    }
}
