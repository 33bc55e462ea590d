package io.ferry.rpc.remoting.internal.client;

import org.junit.jupiter.api.Test;

import static io.ferry.rpc.remoting.internal.client.ConnectionSlot.pullForwardDelay;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * When a call that needs a connection moves the next connect attempt: the rule alone, time given in milliseconds
 * (as nanoseconds) with a 100 ms minimum back-off.
 */
class PullForwardTest {
    private static final long MS = 1_000_000;
    private static final long MIN = 100 * MS;

    @Test
    void aCallLongAfterTheLastAttemptStartsOneAtOnce() {
        assertEquals(0, pullForwardDelay(false, 250 * MS, MIN, 4_000 * MS), "not the 4 s the back-off wanted");
    }

    @Test
    void aCallRightAfterAFailedAttemptMovesTheNextToTheMinimumGap() {
        // the callers that waited for an attempt come back within 10 ms of its failure
        assertEquals(90 * MS, pullForwardDelay(false, 10 * MS, MIN, 3_000 * MS),
                "100 ms after the last attempt, not 3 s");
    }

    @Test
    void anAttemptAlreadyDueSoonerIsLeftAlone() {
        assertEquals(-1, pullForwardDelay(false, 10 * MS, MIN, 50 * MS));
    }

    @Test
    void aFirstConnectsSpreadIsSkippedWhateverTheGap() {
        assertEquals(0, pullForwardDelay(true, 0, MIN, 900 * MS));
    }
}
