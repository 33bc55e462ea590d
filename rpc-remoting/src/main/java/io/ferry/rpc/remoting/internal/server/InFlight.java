package io.ferry.rpc.remoting.internal.server;

/** Counts requests handed to the business pool and not yet answered, so a shutdown can wait for them. */
public final class InFlight {
    private int count;

    synchronized void begin() {
        count++;
    }

    synchronized void end() {
        if (--count == 0) {
            notifyAll();
        }
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
