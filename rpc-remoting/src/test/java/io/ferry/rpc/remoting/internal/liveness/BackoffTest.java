package io.ferry.rpc.remoting.internal.liveness;

import org.junit.jupiter.api.Test;

import java.util.Random;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class BackoffTest {
    private static final long MS = TimeUnit.MILLISECONDS.toNanos(1);

    @Test
    void ceilingsDoubleFrom100MsAndStopAt30Seconds() {
        Backoff backoff = new Backoff(100 * MS, 30_000 * MS, () -> 0.5);
        assertEquals(100 * MS, backoff.ceiling(0));
        assertEquals(200 * MS, backoff.ceiling(1));
        assertEquals(400 * MS, backoff.ceiling(2));
        assertEquals(25_600 * MS, backoff.ceiling(8));
        assertEquals(30_000 * MS, backoff.ceiling(9));
        assertEquals(30_000 * MS, backoff.ceiling(1000), "no overflow");
    }

    @Test
    void fullJitterDrawsAnywhereBelowTheCeiling() {
        Random random = new Random(3);
        Backoff backoff = new Backoff(100 * MS, 30_000 * MS, random::nextDouble);
        long min = Long.MAX_VALUE;
        long max = 0;
        for (int i = 0; i < 10_000; i++) {
            long delay = backoff.delay(4); // ceiling 1.6 s
            assertTrue(delay >= 0 && delay < 1600 * MS);
            min = Math.min(min, delay);
            max = Math.max(max, delay);
        }
        assertTrue(min < 20 * MS && max > 1580 * MS, "covers the whole range: " + min / MS + ".." + max / MS);
    }

    @Test
    void rejectsNonsense() {
        assertThrows(IllegalArgumentException.class, () -> new Backoff(0, 1, () -> 0));
        assertThrows(IllegalArgumentException.class, () -> new Backoff(10, 5, () -> 0));
    }
}
