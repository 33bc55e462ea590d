package io.ferry.rpc.remoting.internal.liveness;

import java.util.function.DoubleSupplier;

/**
 * Reconnect delays: exponential with full jitter. The n-th consecutive failure waits a uniformly random time in
 * [0, min(max, min × 2^n)) (100 ms to 5 s by default). Full jitter keeps thousands of consumers that lost the same provider at the same
 * moment from knocking on its accept queue in step. The attempt count resets after a successful connect.
 */
public final class Backoff {
    private final long minNanos;
    private final long maxNanos;
    private final DoubleSupplier random;

    public Backoff(long minNanos, long maxNanos, DoubleSupplier random) {
        if (minNanos <= 0 || maxNanos < minNanos) {
            throw new IllegalArgumentException("reconnect backoff: " + minNanos + ".." + maxNanos
                    + "ns (expected: 0 < min <= max)");
        }
        this.minNanos = minNanos;
        this.maxNanos = maxNanos;
        this.random = random;
    }

    /** The ceiling of the delay after {@code failures} consecutive failures (0 for the first reconnect). */
    public long ceiling(int failures) {
        int shift = Math.min(failures, 40);
        long ceiling = minNanos << shift;
        return ceiling <= 0 || ceiling > maxNanos ? maxNanos : ceiling;
    }

    /** A random delay below {@link #ceiling}. */
    public long delay(int failures) {
        return (long) (ceiling(failures) * random.getAsDouble());
    }
}
