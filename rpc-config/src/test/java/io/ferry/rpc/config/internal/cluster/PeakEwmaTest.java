package io.ferry.rpc.config.internal.cluster;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The response-time average, on a fake clock (tau = 1000 ns here). */
class PeakEwmaTest {
    @Test
    void aSlowerSampleIsTakenAtOnceAndAFasterOneBlendsInOnce() {
        PeakEwma ewma = new PeakEwma(1000);
        ewma.record(10_000, 0);
        assertEquals(10_000, ewma.get(0), 1e-9, "peak");
        ewma.record(0, 1000); // one tau later: weight e^-1 for the history, 1 - e^-1 for the sample
        assertEquals(10_000 * Math.exp(-1), ewma.get(1000), 1e-6);
        assertEquals(10_000 * Math.exp(-2), ewma.get(2000), 1e-6, "and it decays while nothing arrives");
    }
}
