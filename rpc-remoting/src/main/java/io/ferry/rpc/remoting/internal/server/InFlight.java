package io.ferry.rpc.remoting.internal.server;

import io.ferry.rpc.Ticker;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * Requests handed to the business pool and not yet answered (their answer flushed), and whether new ones are still
 * taken: one monitor guards both, so a shutdown that stops taking requests and then waits for none in flight
 * cannot miss a request that slipped in between. The wait's deadline is measured on {@code ticker}.
 */
public final class InFlight {
    private final Ticker ticker;
    private int count;
    private boolean refusing;

    public InFlight(Ticker ticker) {
        this.ticker = ticker;
    }

    /** Counts a request in, unless requests are refused now. */
    synchronized boolean tryBegin() {
        if (refusing) {
            return false;
        }
        count++;
        return true;
    }

    synchronized void end() {
        if (--count == 0) {
            notifyAll();
        }
    }

    /** From now on {@link #tryBegin} refuses. */
    public synchronized void refuse() {
        refusing = true;
    }

    public synchronized int count() {
        return count;
    }

    /**
     * Waits until none is in flight or {@code timeout} has passed on the ticker; returns how many are still in
     * flight. Each wait on the monitor lasts at most what is left of the timeout, and the ticker is read again after
     * it, so the deadline holds whatever woke the wait.
     */
    public synchronized int awaitNone(Duration timeout) throws InterruptedException {
        long deadline = ticker.nanoTime() + timeout.toNanos();
        while (count > 0) {
            long left = deadline - ticker.nanoTime();
            if (left <= 0) {
                break;
            }
            TimeUnit.NANOSECONDS.timedWait(this, left);
        }
        return count;
    }
}
