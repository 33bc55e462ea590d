package io.ferry.rpc.remoting.internal.server;

import io.ferry.rpc.Ticker;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * Requests handed to the business pool and not yet answered (their answer flushed), and whether new ones are still
 * taken: one monitor guards both, so a shutdown that stops taking requests and then waits for none in flight
 * cannot miss a request that slipped in between. The wait's deadline is measured on {@code ticker}. A drain that
 * must not block its thread (the admin port's) asks for {@link #whenNone()} instead of waiting.
 */
public final class InFlight {
    private final Ticker ticker;
    private int count;
    private boolean refusing;
    /** Completed when the count next reaches zero; rarely any (an operator's drain). */
    private final List<CompletableFuture<Void>> idleWaiters = new ArrayList<>();

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

    void end() {
        List<CompletableFuture<Void>> idle;
        synchronized (this) {
            if (--count != 0) {
                return;
            }
            notifyAll();
            if (idleWaiters.isEmpty()) {
                return;
            }
            idle = new ArrayList<>(idleWaiters);
            idleWaiters.clear();
        }
        idle.forEach(waiter -> waiter.complete(null)); // outside the monitor: its dependents run here
    }

    /**
     * Completes once none is in flight: at once when none is now, else when the last one in flight ends (on the
     * thread that ends it, so dependents should hop to a thread of their own).
     */
    public CompletableFuture<Void> whenNone() {
        CompletableFuture<Void> idle = new CompletableFuture<>();
        synchronized (this) {
            if (count > 0) {
                idleWaiters.add(idle);
                return idle;
            }
        }
        idle.complete(null);
        return idle;
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
