package io.ferry.rpc.config.internal.observation;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.observation.ObservationRegistry;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** When Ferry observes calls at all, and what it says at start about the tracing it finds. */
class MicrometerInstrumentationTest {
    @Test
    void aRegistryThatRecordsNothingPutsNoFilterInTheChain() {
        assertNull(MicrometerInstrumentation.create(ObservationRegistry.NOOP, null));
        assertNull(MicrometerInstrumentation.create(null, null));
    }

    @Test
    void aMeterRegistryAloneIsTimedStraightIntoAndAnObservationRegistryDecidesForItself() {
        MicrometerInstrumentation alone = (MicrometerInstrumentation) MicrometerInstrumentation.create(null,
                new SimpleMeterRegistry());
        assertNotNull(alone);
        assertNull(alone.registry(), "no observation per call where only timers are asked for");
        ObservationRegistry given = ObservationRegistry.create();
        given.observationConfig().observationHandler(context -> true);
        MicrometerInstrumentation both = (MicrometerInstrumentation) MicrometerInstrumentation.create(given,
                new SimpleMeterRegistry());
        assertEquals(given, both.registry(), "the application's registry decides what becomes of observations");
    }

    @Test
    void tracingMadeForAnotherMicrometerIsNamed() {
        assertTrue(MicrometerVersions.matched("1.5.12", "1.15.12"));
        assertTrue(MicrometerVersions.matched("1.6.0", "1.16.3"));
        assertFalse(MicrometerVersions.matched("1.5.12", "1.17.2"), "Dubbo 3.3.6's pitfall: tracing off unsaid");
        assertFalse(MicrometerVersions.matched("1.7.2", "1.15.12"));
        assertTrue(MicrometerVersions.matched("?", "1.15.12"), "a version nobody states is not guessed at");
        assertTrue(MicrometerVersions.matched("2.0.0", "1.15.0"));
    }

    @Test
    void theTestClassPathHasAMatchedBridgeSoNothingIsSaid() {
        assertTrue(MicrometerVersions.version(MicrometerVersions.TRACER).matches("\\d+\\.\\d+\\.\\d+.*"));
        assertTrue(MicrometerVersions.version(MicrometerVersions.OBSERVATION).matches("\\d+\\.\\d+\\.\\d+.*"));
        assertNull(TracingCheck.problem());
    }
}
