package io.ferry.rpc.spi;

import org.junit.jupiter.api.Test;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** At most N lines a second, on a fake ticker; the lines left out are counted and told with the next one logged. */
class LogLimiterTest {
    private static final long MS = TimeUnit.MILLISECONDS.toNanos(1);

    private final AtomicLong now = new AtomicLong(-5_000 * MS); // any reading will do, negative ones too
    private final LogLimiter limiter = new LogLimiter(3, now::get);

    @Test
    void atMostNLinesASecondAndTheLeftOutAreCountedWithTheNext() {
        assertEquals(0, limiter.tryLog());
        assertEquals(0, limiter.tryLog());
        now.addAndGet(999 * MS);
        assertEquals(0, limiter.tryLog(), "three within the first second");
        assertEquals(-1, limiter.tryLog());
        assertEquals(-1, limiter.tryLog(), "a fourth and fifth are left out");

        now.addAndGet(MS);
        assertEquals(2, limiter.tryLog(), "a second after the window opened: logged, with the two left out");
        assertEquals(0, limiter.tryLog(), "the count is told once");
        assertEquals(0, limiter.tryLog());
        assertEquals(-1, limiter.tryLog());
    }

    @Test
    void theNextWindowOpensWithTheFirstLineAfterTheSecondHasPassed() {
        for (int i = 0; i < 3; i++) {
            assertEquals(0, limiter.tryLog());
        }
        now.addAndGet(10_000 * MS); // a quiet spell: the next window starts at the next line, not at a whole second
        assertEquals(0, limiter.tryLog());
        now.addAndGet(500 * MS);
        assertEquals(0, limiter.tryLog());
        assertEquals(0, limiter.tryLog());
        assertEquals(-1, limiter.tryLog());
        now.addAndGet(499 * MS);
        assertEquals(-1, limiter.tryLog(), "999 ms into the window that opened after the spell");
        now.addAndGet(MS);
        assertEquals(2, limiter.tryLog());
    }

    @Test
    void aLimiterThatNeverFillsItsSecondReportsNothingLeftOut() {
        for (int i = 0; i < 10; i++) {
            assertEquals(0, limiter.tryLog());
            now.addAndGet(400 * MS);
        }
    }
}
