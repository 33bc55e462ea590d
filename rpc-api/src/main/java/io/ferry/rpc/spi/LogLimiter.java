package io.ferry.rpc.spi;

import io.ferry.rpc.Ticker;

import java.util.concurrent.TimeUnit;

/**
 * At most {@code perSecond} log lines a second for one kind of event, so that a client sending garbage, or a
 * service failing on every call, cannot flood the log; the lines left out are counted and reported with the next
 * one let through. A second is a window on {@code ticker}: the first starts at construction, the next with the
 * first line asked for once a second has passed. Thread-safe. Shared by the modules' peer-caused lines (the
 * transport's, the token and caller checks'), so that each limits alike.
 */
public final class LogLimiter {
    private static final long SECOND = TimeUnit.SECONDS.toNanos(1);

    private final int perSecond;
    private final Ticker ticker;
    private long windowStart;
    private int inWindow;
    private long suppressed;

    public LogLimiter(int perSecond, Ticker ticker) {
        this.perSecond = perSecond;
        this.ticker = ticker;
        this.windowStart = ticker.nanoTime();
    }

    /**
     * Whether to log now; returns -1 for no, else how many lines were left out since the last one logged.
     */
    public synchronized long tryLog() {
        long now = ticker.nanoTime();
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
