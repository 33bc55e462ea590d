package io.ferry.rpc.remoting.internal.server;

import java.util.concurrent.TimeUnit;

/**
 * At most {@code perSecond} log lines a second for one kind of event, so that a client sending garbage, or a
 * service failing on every call, cannot flood the log; the lines left out are counted and reported with the next
 * one let through. Thread-safe.
 */
final class LogLimiter {
    private static final long SECOND = TimeUnit.SECONDS.toNanos(1);

    private final int perSecond;
    private long windowStart = System.nanoTime();
    private int inWindow;
    private long suppressed;

    LogLimiter(int perSecond) {
        this.perSecond = perSecond;
    }

    /**
     * Whether to log now; returns -1 for no, else how many lines were left out since the last one logged.
     */
    synchronized long tryLog() {
        long now = System.nanoTime();
        if (now - windowStart >= SECOND) {
            windowStart = now;
            inWindow = 0;
        }
        if (inWindow >= perSecond) {
            suppressed++;
            return -1;
        }
        inWindow++;
        long left = suppressed;
        suppressed = 0;
        return left;
    }
}
