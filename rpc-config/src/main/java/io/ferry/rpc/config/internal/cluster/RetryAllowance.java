package io.ferry.rpc.config.internal.cluster;

import io.ferry.rpc.Ticker;
import io.ferry.rpc.config.RetryBudget;

import java.util.concurrent.TimeUnit;

/**
 * Counts one reference's calls and retries over the last 10 seconds (ten one-second buckets, on an injected
 * clock) and allows a retry while retries stay under {@code minPerSecond × 10 + percent × calls}. Thread-safe.
 */
final class RetryAllowance {
    private static final int BUCKETS = 10;
    private static final long BUCKET_NANOS = TimeUnit.SECONDS.toNanos(1);

    private final RetryBudget budget;
    private final Ticker ticker;
    private final long[] calls = new long[BUCKETS];
    private final long[] retries = new long[BUCKETS];
    private final long[] epochs = new long[BUCKETS];
    // totals since the start, under the same lock as the buckets: counting them costs nothing more
    private long taken;
    private long refused;

    RetryAllowance(RetryBudget budget, Ticker ticker) {
        this.budget = budget;
        this.ticker = ticker;
        java.util.Arrays.fill(epochs, Long.MIN_VALUE);
    }

    /** A call starts: it adds to what may be retried. */
    synchronized void called() {
        calls[bucket()]++;
    }

    /** Takes one retry if the budget allows it. */
    synchronized boolean tryRetry() {
        int current = bucket();
        if (left(current) < 1) {
            refused++;
            return false;
        }
        retries[current]++;
        taken++;
        return true;
    }

    /** Retries allowed now: what the window's calls allow minus what its retries took. */
    synchronized double left() {
        return Math.max(0, left(bucket()));
    }

    synchronized long taken() {
        return taken;
    }

    synchronized long refused() {
        return refused;
    }

    private double left(int current) {
        long epoch = epochs[current];
        long callsInWindow = 0;
        long retriesInWindow = 0;
        for (int i = 0; i < BUCKETS; i++) {
            if (epochs[i] > epoch - BUCKETS) {
                callsInWindow += calls[i];
                retriesInWindow += retries[i];
            }
        }
        double allowed = (double) budget.minPerSecond() * BUCKETS + budget.percent() / 100.0 * callsInWindow;
        return allowed - retriesInWindow;
    }

    private int bucket() {
        long epoch = Math.floorDiv(ticker.nanoTime(), BUCKET_NANOS);
        int index = (int) Math.floorMod(epoch, (long) BUCKETS);
        if (epochs[index] != epoch) {
            epochs[index] = epoch;
            calls[index] = 0;
            retries[index] = 0;
        }
        return index;
    }
}
