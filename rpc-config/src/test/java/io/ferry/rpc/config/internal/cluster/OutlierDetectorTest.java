package io.ferry.rpc.config.internal.cluster;

import io.ferry.rpc.config.OutlierEjection;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

import static io.ferry.rpc.config.internal.cluster.OutlierDetector.State.EJECTED;
import static io.ferry.rpc.config.internal.cluster.OutlierDetector.State.PROBE_DUE;
import static io.ferry.rpc.config.internal.cluster.OutlierDetector.State.PROBING;
import static io.ferry.rpc.config.internal.cluster.OutlierDetector.State.TRUSTED;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Ejection and probing as a state machine on a fake clock. */
class OutlierDetectorTest {
    private static final long SECOND = Duration.ofSeconds(1).toNanos();
    private static final OutlierEjection POLICY = new OutlierEjection(true, 3, Duration.ofSeconds(5),
            Duration.ofSeconds(12), 50);

    private final AtomicInteger providers = new AtomicInteger(2);
    private final Ejections ejections = new Ejections(POLICY, providers::get);

    @Test
    void consecutiveFailuresEjectAndAnAnsweredProbeRestores() {
        OutlierDetector detector = new OutlierDetector("p", ejections);
        detector.failed(0);
        detector.failed(0);
        detector.answered();
        detector.failed(0);
        detector.failed(0);
        assertEquals(TRUSTED, detector.state(0), "an answer in between starts the count again");
        detector.failed(0);
        assertEquals(EJECTED, detector.state(0));
        assertFalse(detector.admits(4 * SECOND));
        assertTrue(detector.admits(5 * SECOND), "time is up: a probe may go");
        assertEquals(PROBE_DUE, detector.state(5 * SECOND));
        detector.sending(5 * SECOND);
        assertEquals(PROBING, detector.state(5 * SECOND));
        assertFalse(detector.admits(5 * SECOND), "one probe at a time");
        detector.answered();
        assertEquals(TRUSTED, detector.state(5 * SECOND));
        assertEquals(0, ejections.ejected());
    }

    @Test
    void aFailedProbeEjectsForTwiceAsLongUpToTheMaximum() {
        OutlierDetector detector = new OutlierDetector("p", ejections);
        for (int i = 0; i < 3; i++) {
            detector.failed(0);
        }
        long t = 5 * SECOND;
        detector.sending(t);
        detector.failed(t);
        assertFalse(detector.admits(t + 9 * SECOND));
        assertTrue(detector.admits(t + 10 * SECOND), "10 s the second time");
        detector.sending(t + 10 * SECOND);
        detector.failed(t + 10 * SECOND);
        assertFalse(detector.admits(t + 21 * SECOND));
        assertTrue(detector.admits(t + 22 * SECOND), "capped at 12 s, not 20 s");
    }

    @Test
    void neverMoreThanTheShareOfProvidersIsEjected() {
        OutlierDetector first = new OutlierDetector("a", ejections);
        OutlierDetector second = new OutlierDetector("b", ejections);
        for (int i = 0; i < 3; i++) {
            first.failed(0);
            second.failed(0);
        }
        assertEquals(EJECTED, first.state(0));
        assertEquals(TRUSTED, second.state(0), "50 % of 2 providers is 1");
        first.removed();
        for (int i = 0; i < 3; i++) {
            second.failed(0);
        }
        assertEquals(EJECTED, second.state(0), "the place freed by the provider that left");
    }

    @Test
    void aSingleProviderIsNeverEjected() {
        providers.set(1);
        OutlierDetector only = new OutlierDetector("only", ejections);
        for (int i = 0; i < 10; i++) {
            only.failed(0);
        }
        assertEquals(TRUSTED, only.state(0));
    }

    @Test
    void aProviderThatLeftTakesNoEjectionPlaceWithItsLastCalls() {
        OutlierDetector leaving = new OutlierDetector("left", ejections);
        leaving.removed();
        for (int i = 0; i < 10; i++) {
            leaving.failed(0); // its calls in flight fail as its connection closes
        }
        assertEquals(0, ejections.ejected());
        OutlierDetector other = new OutlierDetector("other", ejections);
        for (int i = 0; i < 3; i++) {
            other.failed(0);
        }
        assertEquals(EJECTED, other.state(0), "the one place is still free");
    }

    @Test
    void anInconclusiveProbeLeavesTheProbeDue() {
        OutlierDetector detector = new OutlierDetector("p", ejections);
        for (int i = 0; i < 3; i++) {
            detector.failed(0);
        }
        detector.sending(5 * SECOND);
        detector.inconclusive(); // refused unrun: tells nothing
        assertEquals(PROBE_DUE, detector.state(5 * SECOND));
    }

    @Test
    void longEjectionsInARowNeverOverflow() {
        Ejections hours = new Ejections(new OutlierEjection(true, 1, Duration.ofHours(3), Duration.ofDays(1), 50),
                () -> 2);
        OutlierDetector detector = new OutlierDetector("p", hours);
        long t = 0;
        detector.failed(t);
        for (int i = 0; i < 40; i++) {
            t += Duration.ofDays(1).toNanos();
            assertTrue(detector.admits(t), "due after at most the maximum");
            detector.sending(t);
            detector.failed(t);
            assertFalse(detector.admits(t + SECOND), "ejected again, for a positive time (round " + i + ")");
        }
    }
}
