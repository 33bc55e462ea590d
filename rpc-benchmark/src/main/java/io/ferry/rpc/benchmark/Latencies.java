package io.ferry.rpc.benchmark;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

/**
 * The latencies of one second of an experiment (or of one whole run), in microseconds: an HdrHistogram
 * {@link Recorder} that calls ending on any thread record into without locks, read once recording is over.
 *
 * <p>Percentiles are nearest-rank: the p-th percentile of n latencies is the ⌈p·n/100⌉-th smallest. They are kept
 * to 3 significant digits: exact below 2,048 µs, and above it the highest value of the sample's bucket, at most
 * 0.1 % above the sample itself.
 *
 * <p>Thread-safety: {@link #record} from any threads; the first {@link #histogram} ends the recording (a value
 * recorded after it is not counted) and every later one returns the same histogram.
 */
public final class Latencies {
    /** HdrHistogram's precision here: values within 0.1 %. */
    public static final int SIGNIFICANT_DIGITS = 3;

    private final Recorder recorder = new Recorder(SIGNIFICANT_DIGITS);
    private Histogram read;

    /** Counts one latency, in microseconds ({@code >= 0}). */
    public void record(long micros) {
        recorder.recordValue(micros);
    }

    /** What was recorded, read on the first call; recording should be over by then. */
    public synchronized Histogram histogram() {
        if (read == null) {
            read = recorder.getIntervalHistogram();
        }
        return read;
    }

    /** How many latencies were recorded. */
    public long count() {
        return histogram().getTotalCount();
    }

    /** The {@code percentile}-th percentile (0–100) of what was recorded, in microseconds; 0 when nothing was. */
    public long percentile(double percentile) {
        return percentile(histogram(), percentile);
    }

    /** The {@code percentile}-th percentile (0–100) of {@code histogram}; 0 when it is empty. */
    public static long percentile(Histogram histogram, double percentile) {
        return histogram.getTotalCount() == 0 ? 0 : histogram.getValueAtPercentile(percentile);
    }

    /** An empty histogram of the same precision, to add several seconds' histograms into. */
    public static Histogram emptyHistogram() {
        return new Histogram(SIGNIFICANT_DIGITS);
    }
}
