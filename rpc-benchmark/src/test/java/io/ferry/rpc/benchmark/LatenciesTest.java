package io.ferry.rpc.benchmark;

import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The experiments' per-second percentiles: nearest rank, exact below 2,048 µs, within 0.1 % above. */
class LatenciesTest {
    @Test
    void percentilesAreNearestRankAndExactBelow2048Micros() {
        Latencies second = new Latencies();
        LongStream.rangeClosed(1, 1000).map(i -> 1001 - i).forEach(second::record); // any order

        assertEquals(1000, second.count());
        assertEquals(500, second.percentile(50));
        assertEquals(990, second.percentile(99), "the 990th of 1,000");
        assertEquals(1000, second.percentile(100));
    }

    @Test
    void fewerThanAHundredSamplesGiveTheSlowestAsP99() {
        Latencies second = new Latencies();
        LongStream.of(120, 80, 5_000, 95).forEach(second::record);

        assertEquals(5_000, second.percentile(99), 5_000 * 0.001);
        assertEquals(95, second.percentile(50), "the 2nd of 4");
    }

    @Test
    void aboveTheExactRangeAPercentileIsWithinATenthOfAPercent() {
        Latencies second = new Latencies();
        LongStream.rangeClosed(1, 100).forEach(i -> second.record(i * 1_000)); // 1 ms to 100 ms

        long p99 = second.percentile(99);
        assertTrue(p99 >= 99_000 && p99 <= 99_000 * 1.001, "p99 " + p99 + " µs (expected: 99,000 within 0.1 %)");
    }

    @Test
    void anEmptySecondHasZeroCallsAndZeroPercentiles() {
        Latencies second = new Latencies();

        assertEquals(0, second.count());
        assertEquals(0, second.percentile(99));
    }

    @Test
    void secondsAddUpToTheWholeSpike() {
        Latencies first = new Latencies();
        Latencies second = new Latencies();
        LongStream.rangeClosed(1, 500).forEach(first::record);
        LongStream.rangeClosed(501, 1000).forEach(second::record);

        Histogram spike = Latencies.emptyHistogram();
        spike.add(first.histogram());
        spike.add(second.histogram());

        assertEquals(1000, spike.getTotalCount());
        assertEquals(990, Latencies.percentile(spike, 99));
        assertEquals(500, first.count(), "reading a second again gives the same figures");
    }

    @Test
    void callsEndingOnManyThreadsAreAllCounted() throws InterruptedException {
        Latencies second = new Latencies();
        ExecutorService threads = Executors.newFixedThreadPool(4);
        for (int t = 0; t < 4; t++) {
            threads.execute(() -> LongStream.rangeClosed(1, 10_000).forEach(i -> second.record(i % 1000 + 1)));
        }
        threads.shutdown();
        assertTrue(threads.awaitTermination(1, TimeUnit.MINUTES));

        assertEquals(40_000, second.count());
        assertEquals(990, second.percentile(99));
    }
}
