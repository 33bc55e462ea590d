package io.ferry.rpc.remoting.internal.server;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntSupplier;

/**
 * How many requests the business pool holds (queued or running), against its capacity ({@code threads} +
 * {@code queues}). Requests are admitted here on the IO thread and handed to a pool whose own queue never refuses,
 * so a request is refused only when the capacity is really in use, never because a worker that has just sent
 * its answer is not back in its queue yet (what a {@code SynchronousQueue} hand-off does).
 *
 * <p>Fair share: once three quarters of the capacity is held, a connection that already holds its share
 * ({@code capacity / connections}) is refused, so one consumer flooding the pool (a burst read from a client that
 * writes without waiting) leaves the last quarter to everyone else instead of taking it too.
 */
final class Admission {
    private final int capacity;
    private final AtomicInteger held = new AtomicInteger();

    Admission(int capacity) {
        this.capacity = capacity;
    }

    /** Takes a place, or returns null when all {@code capacity} places are held. */
    Ticket tryAcquire() {
        return tryAcquire(new AtomicInteger(), () -> 1);
    }

    /**
     * Takes a place for a request of a connection whose places are counted in {@code connectionHeld}, or returns
     * null when the pool is full, or three quarters full and that connection holds its share of
     * {@code connections}. The ticket counts itself in {@code connectionHeld} until it is given back.
     */
    Ticket tryAcquire(AtomicInteger connectionHeld, IntSupplier connections) {
        while (true) {
            int now = held.get();
            if (now >= capacity) {
                return null;
            }
            if (now >= capacity - capacity / 4 && connectionHeld.get() >= fairShare(connections.getAsInt())) {
                return null;
            }
            if (held.compareAndSet(now, now + 1)) {
                return new Ticket(connectionHeld);
            }
        }
    }

    /**
     * One admitted request's place. Given back as soon as its answer is about to be written (or its task ends,
     * for a request answered later or never): a closed-loop caller's next request can arrive before the worker
     * that answered it is back at the queue, and must not find the place still held.
     */
    final class Ticket extends AtomicBoolean implements Runnable {
        private static final long serialVersionUID = 1L;
        private final transient AtomicInteger connectionHeld;

        Ticket(AtomicInteger connectionHeld) {
            this.connectionHeld = connectionHeld;
            connectionHeld.incrementAndGet();
        }

        /** Gives the place back; only the first call counts. */
        @Override
        public void run() {
            if (compareAndSet(false, true)) {
                held.decrementAndGet();
                connectionHeld.decrementAndGet();
            }
        }
    }

    int fairShare(int connections) {
        return Math.max(1, capacity / Math.max(1, connections));
    }

    int held() {
        return held.get();
    }

    int capacity() {
        return capacity;
    }
}
