package io.ferry.rpc.benchmark.congestion;

/** The congestion experiment's service: answers of a chosen size after a chosen pause, as a report generator would. */
public interface Blob {
    byte[] fetch(int bytes, int sleepMillis);

    /**
     * The provider's counters: executed, executed after the caller's deadline had passed, running now, heap used,
     * direct memory used, RSS (all bytes), the wall-clock millis when the last request that slept finished, and the
     * most bytes queued for one consumer connection (answers waiting to be written).
     */
    long[] stats();
}
