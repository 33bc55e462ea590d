package io.ferry.rpc.remoting.internal.server;

/**
 * Requests handed to the business pool and not yet answered (their answer flushed), and whether new ones are still
 * taken: one monitor guards both, so a shutdown that stops taking requests and then waits for none in flight
 * cannot miss a request that slipped in between.
 */
public final class InFlight {
    private int count;
    private boolean refusing;

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

    /** Waits until none is in flight or the timeout passes; returns how many are still in flight. */
    public synchronized int awaitNone(long timeoutMillis) throws InterruptedException {
        long deadline = System.currentTimeMillis() + timeoutMillis;
        while (count > 0) {
            long left = deadline - System.currentTimeMillis();
            if (left <= 0) {
                break;
            }
            wait(left);
        }
        return count;
    }
}
