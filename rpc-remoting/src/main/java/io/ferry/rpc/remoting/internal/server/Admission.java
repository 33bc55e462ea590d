package io.ferry.rpc.remoting.internal.server;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * How many requests the business pool holds (queued or running), against its capacity ({@code threads} +
 * {@code queues}). Requests are admitted here on the IO thread and handed to a pool whose own queue never refuses,
 * so a request is refused only when the capacity is really in use, never because a worker that has just sent
 * its answer is not back in its queue yet (what a {@code SynchronousQueue} hand-off does).
 */
final class Admission {
    private final int capacity;
    private final AtomicInteger held = new AtomicInteger();

    Admission(int capacity) {
        this.capacity = capacity;
    }

    /** Takes a place, or returns null when all {@code capacity} places are held. */
    Ticket tryAcquire() {
        while (true) {
            int now = held.get();
            if (now >= capacity) {
                return null;
            }
            if (held.compareAndSet(now, now + 1)) {
                return new Ticket();
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

        /** Gives the place back; only the first call counts. */
        @Override
        public void run() {
            if (compareAndSet(false, true)) {
                held.decrementAndGet();
            }
        }
    }

    int held() {
        return held.get();
    }

    int capacity() {
        return capacity;
    }
}
