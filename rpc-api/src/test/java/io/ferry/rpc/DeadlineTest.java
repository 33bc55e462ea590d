package io.ferry.rpc;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Deadlines on a fake ticker: the test moves time by hand, so nothing here waits. */
class DeadlineTest {
    private static final long MS = TimeUnit.MILLISECONDS.toNanos(1);

    private final AtomicLong now = new AtomicLong(1_000 * MS);
    private final Ticker ticker = now::get;

    @Test
    void timeRunsOutExactlyAtTheTimeout() {
        Deadline d = Deadline.after(Duration.ofMillis(100), ticker);
        assertFalse(d.isExpired());
        assertEquals(100 * MS, d.remainingNanos());

        now.addAndGet(100 * MS - 1);
        assertFalse(d.isExpired(), "one nanosecond left");
        assertEquals(1, d.remainingNanos());

        now.addAndGet(1);
        assertTrue(d.isExpired());
        assertEquals(0, d.remainingNanos());
    }

    @Test
    void remainingTimeNeverGoesNegative() {
        Deadline d = Deadline.afterNanos(100 * MS, ticker);
        now.addAndGet(250 * MS);
        assertTrue(d.isExpired());
        assertEquals(0, d.remainingNanos());
        assertEquals(0, d.remainingMillis());
        assertEquals(250 * MS, d.elapsedNanos(), "elapsed keeps counting past the deadline");
        assertEquals(250, d.elapsedMillis());
    }

    @Test
    void remainingMillisRoundUpSoThatACallWithTimeLeftNeverSendsZero() {
        Deadline d = Deadline.afterNanos(100 * MS, ticker);
        now.addAndGet(100 * MS - 1);
        assertEquals(1, d.remainingMillis(), "1 ns left is 1 ms, not 0");

        Deadline e = Deadline.afterNanos(100 * MS, ticker);
        now.addAndGet(40 * MS);
        assertEquals(60, e.remainingMillis(), "whole milliseconds stay as they are");
        now.addAndGet(MS / 2);
        assertEquals(60, e.remainingMillis(), "59.5 ms left rounds up to 60");
    }

    @Test
    void theTimeoutIsRememberedHoweverMuchIsLeft() {
        Deadline d = Deadline.after(Duration.ofMillis(1000), ticker);
        now.addAndGet(750 * MS);
        assertEquals(Duration.ofMillis(1000), d.timeout());
        assertEquals(1000, d.timeoutMillis());
        assertEquals("deadline of 1000 ms, 250 ms left", d.toString());
    }

    @Test
    void timeoutMillisTruncatesASubMillisecondRemainder() {
        Deadline d = Deadline.afterNanos(2 * MS - 1, ticker);
        assertEquals(1, d.timeoutMillis());
        assertEquals(Duration.ofNanos(2 * MS - 1), d.timeout(), "the exact timeout is kept");
        assertEquals(2, d.remainingMillis(), "while the time left rounds up");
    }

    @Test
    void aTimeoutMustBePositive() {
        IllegalArgumentException zero = assertThrows(IllegalArgumentException.class,
                () -> Deadline.after(Duration.ZERO, ticker));
        assertEquals("timeout: 0ms (expected: > 0)", zero.getMessage());
        IllegalArgumentException negative = assertThrows(IllegalArgumentException.class,
                () -> Deadline.afterNanos(-5 * MS, ticker));
        assertEquals("timeout: -5ms (expected: > 0)", negative.getMessage());
    }

    @Test
    void startingAtCountsFromAnEarlierReading() {
        long arrived = now.get();
        now.addAndGet(30 * MS); // the request waited in a queue before its deadline was worked out
        Deadline d = Deadline.startingAt(arrived, 100 * MS, ticker);
        assertEquals(30 * MS, d.elapsedNanos());
        assertEquals(70 * MS, d.remainingNanos());
        assertEquals(100, d.timeoutMillis());
    }

    @Test
    void startingAtWithNoTimeLeftIsAlreadyExpired() {
        Deadline negative = Deadline.startingAt(now.get(), -5 * MS, ticker);
        assertTrue(negative.isExpired());
        assertEquals(Duration.ZERO, negative.timeout(), "a negative timeout counts as none left, not as an error");
        assertTrue(Deadline.startingAt(now.get(), 0, ticker).isExpired());
    }

    @Test
    void onlyDifferencesBetweenReadingsCount() {
        now.set(Long.MAX_VALUE - 10 * MS); // a ticker may start anywhere, and wrap
        Deadline d = Deadline.afterNanos(100 * MS, ticker);
        now.addAndGet(40 * MS);
        assertEquals(40 * MS, d.elapsedNanos());
        assertEquals(60 * MS, d.remainingNanos());
        assertFalse(d.isExpired());
        now.addAndGet(60 * MS);
        assertTrue(d.isExpired());
    }

    @Test
    void noneNeverExpires() {
        Deadline none = Deadline.none();
        assertTrue(none.isNone());
        assertFalse(none.isExpired());
        assertEquals(Long.MAX_VALUE, none.remainingNanos());
        assertEquals(Long.MAX_VALUE, none.remainingMillis(), "no rounding overflow");
        assertEquals("no deadline", none.toString());
        assertSame(none, Deadline.none());
        assertFalse(Deadline.after(Duration.ofDays(365), ticker).isNone(), "a long deadline is still a deadline");
    }

    @Test
    void earlierPicksTheDeadlineWithLessTimeLeft() {
        Deadline outer = Deadline.after(Duration.ofMillis(1000), ticker);
        now.addAndGet(900 * MS);
        Deadline nested = Deadline.after(Duration.ofMillis(500), ticker);
        assertSame(outer, nested.earlier(outer), "100 ms left of the outer call bounds the 500 ms nested one");
        assertSame(outer, outer.earlier(nested));

        Deadline tighter = Deadline.after(Duration.ofMillis(50), ticker);
        assertSame(tighter, outer.earlier(tighter), "50 ms left beats 100 ms");
    }

    @Test
    void earlierKeepsThisOnATie() {
        Deadline a = Deadline.after(Duration.ofMillis(100), ticker);
        Deadline b = Deadline.after(Duration.ofMillis(100), ticker);
        assertSame(a, a.earlier(b));
        assertSame(b, b.earlier(a));
    }

    @Test
    void earlierIgnoresNoneAndNull() {
        Deadline d = Deadline.after(Duration.ofMillis(100), ticker);
        assertSame(d, d.earlier(Deadline.none()));
        assertSame(d, d.earlier(null));
        assertSame(d, Deadline.none().earlier(d));
        assertTrue(Deadline.none().earlier(Deadline.none()).isNone());
    }

    @Test
    void anExpiredDeadlineIsEarlierThanOneWithTimeLeft() {
        Deadline expired = Deadline.startingAt(now.get(), 0, ticker);
        Deadline later = Deadline.after(Duration.ofMillis(1), ticker);
        assertSame(expired, later.earlier(expired));
    }
}
