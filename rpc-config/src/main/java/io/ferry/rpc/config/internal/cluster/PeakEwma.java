package io.ferry.rpc.config.internal.cluster;

/**
 * A response-time average that jumps at once to a slower sample and otherwise moves toward new samples, and
 * toward zero while none arrive, with time constant {@code tau} (Finagle's peak EWMA): a provider that turns slow
 * is avoided at once, one that was slow is tried again after a few {@code tau}. Thread-safe.
 */
final class PeakEwma {
    private final double tauNanos;
    private double value;
    private long stamp;

    PeakEwma(long tauNanos) {
        this.tauNanos = tauNanos;
    }

    synchronized void record(long sampleNanos, long now) {
        double decayed = decayed(now);
        if (sampleNanos > decayed) {
            value = sampleNanos;
        } else {
            double w = Math.exp(-Math.max(0, now - stamp) / tauNanos);
            value = value * w + sampleNanos * (1 - w); // value * w is the decayed average: decay once
        }
        stamp = now;
    }

    /** The average now; 0 before any sample. */
    synchronized double get(long now) {
        return decayed(now);
    }

    private double decayed(long now) {
        return value * Math.exp(-Math.max(0, now - stamp) / tauNanos);
    }
}
