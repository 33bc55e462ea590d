package io.ferry.rpc.remoting.internal.liveness;

import org.junit.jupiter.api.Test;

import java.util.Random;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The heartbeat state machine on a fake clock: nanoseconds are plain numbers here. */
class KeepAliveTest {
    private static final long SECOND = TimeUnit.SECONDS.toNanos(1);
    private static final long INTERVAL = 60 * SECOND;

    @Test
    void aHeartbeatGoesOutOnlyAfterTheCyclesIdleThreshold() {
        KeepAlive k = new KeepAlive(INTERVAL, 0, () -> 0.25); // threshold 0.75 x interval = 45 s
        assertEquals(KeepAlive.Action.NONE, k.check(44 * SECOND));
        assertEquals(45 * SECOND - 44 * SECOND, k.nextCheckIn(44 * SECOND));
        assertEquals(KeepAlive.Action.SEND_HEARTBEAT, k.check(45 * SECOND));
        assertEquals(KeepAlive.Action.NONE, k.check(46 * SECOND), "one heartbeat per cycle");
    }

    @Test
    void readsPostponeTheHeartbeat() {
        KeepAlive k = new KeepAlive(INTERVAL, 0, () -> 0.5); // threshold = interval
        k.onRead(50 * SECOND);
        assertEquals(KeepAlive.Action.NONE, k.check(60 * SECOND));
        assertEquals(KeepAlive.Action.NONE, k.check(109 * SECOND));
        assertEquals(KeepAlive.Action.SEND_HEARTBEAT, k.check(110 * SECOND));
    }

    @Test
    void threeIntervalsWithoutAReadCloseTheConnectionEvenWhileHeartbeatsGoOut() {
        KeepAlive k = new KeepAlive(INTERVAL, 0, () -> 0.5);
        int heartbeats = 0;
        long now = 0;
        KeepAlive.Action action = KeepAlive.Action.NONE;
        while (action != KeepAlive.Action.CLOSE) {
            now += k.nextCheckIn(now);
            action = k.check(now);
            if (action == KeepAlive.Action.SEND_HEARTBEAT) {
                heartbeats++;
            }
        }
        assertEquals(3 * INTERVAL, now);
        assertEquals(2, heartbeats, "heartbeats at 60 s and 120 s went unanswered");
    }

    @Test
    void thresholdsStayWithinHalfToOneAndAHalfIntervals() {
        assertThrows(IllegalArgumentException.class, () -> new KeepAlive(0, 0, () -> 0.5));
        Random random = new Random(7);
        for (int i = 0; i < 1000; i++) {
            KeepAlive k = new KeepAlive(INTERVAL, 0, random::nextDouble);
            long due = k.nextCheckIn(0);
            assertTrue(due >= INTERVAL / 2 && due < 3 * INTERVAL / 2, "threshold " + due);
        }
    }

    /**
     * The storm: 10,000 connections whose last reads landed in the same instant (after a provider's GC pause).
     * With a fixed threshold their heartbeats stay in step every cycle; with a fresh draw per cycle they spread
     * over the whole interval within one cycle.
     */
    @Test
    void perCycleJitterSpreadsConnectionsThatAStallPutInStep() {
        Random random = new Random(42);
        assertTrue(spreadOfThirdCycle(() -> 0.5) < SECOND / 1000, "no jitter: still in step");
        long spread = spreadOfThirdCycle(random::nextDouble);
        assertTrue(spread > INTERVAL * 9 / 10, "jittered: spread over " + spread / SECOND + " s");
    }

    /** Simulates each connection's heartbeats (each answered 1 ms later) and returns the spread of the 3rd ones. */
    private static long spreadOfThirdCycle(java.util.function.DoubleSupplier random) {
        long min = Long.MAX_VALUE;
        long max = Long.MIN_VALUE;
        long rtt = TimeUnit.MILLISECONDS.toNanos(1);
        for (int c = 0; c < 10_000; c++) {
            KeepAlive k = new KeepAlive(INTERVAL, 0, random); // every read landed at t = 0
            long now = 0;
            int beats = 0;
            while (beats < 3) {
                now += k.nextCheckIn(now);
                if (k.check(now) == KeepAlive.Action.SEND_HEARTBEAT) {
                    beats++;
                    k.onRead(now + rtt);
                }
            }
            min = Math.min(min, now);
            max = Math.max(max, now);
        }
        return max - min;
    }

    @Test
    void aCallTimingOutWithNothingReadSinceItWasSentPingsAndClosesIfThePingIsNotAnswered() {
        KeepAlive k = new KeepAlive(INTERVAL, 0, () -> 0.5);
        k.onRead(10 * SECOND);
        assertEquals(KeepAlive.Action.SEND_HEARTBEAT, k.callTimedOut(13 * SECOND, 2 * SECOND, 3 * SECOND),
                "sent at 11 s, nothing read since 10 s: ping now");
        assertEquals(KeepAlive.Action.NONE, k.callTimedOut(13 * SECOND, 2 * SECOND, 3 * SECOND),
                "one ping at a time");
        assertEquals(3 * SECOND, k.nextCheckIn(13 * SECOND), "the ping's deadline comes before the heartbeat");
        assertEquals(KeepAlive.Action.NONE, k.check(15 * SECOND));
        assertEquals(KeepAlive.Action.CLOSE_SILENT, k.check(16 * SECOND));
    }

    @Test
    void anythingReadAnswersThePing() {
        KeepAlive k = new KeepAlive(INTERVAL, 0, () -> 0.5);
        assertEquals(KeepAlive.Action.SEND_HEARTBEAT, k.callTimedOut(5 * SECOND, SECOND, 3 * SECOND));
        k.onRead(6 * SECOND);
        assertEquals(KeepAlive.Action.NONE, k.check(9 * SECOND));
        assertEquals(KeepAlive.Action.NONE, k.check(30 * SECOND));
    }

    @Test
    void aCallThatTimesOutWhileOtherAnswersArriveSaysNothingAboutThePath() {
        KeepAlive k = new KeepAlive(INTERVAL, 0, () -> 0.5);
        k.onRead(12 * SECOND); // an answer to another call, after this one was sent at 11 s
        assertEquals(KeepAlive.Action.NONE, k.callTimedOut(13 * SECOND, 2 * SECOND, 3 * SECOND),
                "a slow method, not a silent path");
        assertEquals(KeepAlive.Action.NONE, k.check(20 * SECOND));
    }
}
