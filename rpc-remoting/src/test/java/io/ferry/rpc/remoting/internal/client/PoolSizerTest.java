package io.ferry.rpc.remoting.internal.client;

import org.junit.jupiter.api.Test;

import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The elastic pool's sizing rules, with time as a parameter. */
class PoolSizerTest {
    private static final long MS = TimeUnit.MILLISECONDS.toNanos(1);
    private final PoolSizer sizer = new PoolSizer(3, 20 * MS, 30_000 * MS);

    @Test
    void growsOnlyOnceCongestionHasLastedTheWholeDelay() {
        assertFalse(sizer.congested(1_000 * MS, 1, false), "the first congested call starts the episode");
        assertFalse(sizer.congested(1_019 * MS, 1, false));
        assertTrue(sizer.congested(1_020 * MS, 1, false));
    }

    @Test
    void oneUncongestedCallEndsTheEpisode() {
        sizer.congested(1_000 * MS, 1, false);
        sizer.relieved();
        assertFalse(sizer.congested(1_025 * MS, 1, false), "a new episode starts here");
        assertTrue(sizer.congested(1_045 * MS, 1, false));
    }

    @Test
    void opensOneConnectionAtATimeAndEachNeedsAnEpisodeOfItsOwn() {
        sizer.congested(0, 1, false);
        assertFalse(sizer.congested(50 * MS, 1, true), "one is being opened already");
        assertTrue(sizer.congested(50 * MS, 1, false));
        sizer.grew();
        assertFalse(sizer.congested(60 * MS, 2, false));
        assertTrue(sizer.congested(80 * MS, 2, false));
    }

    @Test
    void neverPastTheMaximum() {
        sizer.congested(0, 3, false);
        assertFalse(sizer.congested(1_000 * MS, 3, false));
    }

    @Test
    void anExtraIsIdleOnceNoCallHasPickedItForTheIdleTimeout() {
        assertFalse(sizer.idle(40_000 * MS, 10_001 * MS));
        assertTrue(sizer.idle(40_000 * MS, 10_000 * MS));
    }
}
