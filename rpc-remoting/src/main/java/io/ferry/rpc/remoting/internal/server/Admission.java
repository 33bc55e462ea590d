package io.ferry.rpc.remoting.internal.server;

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

    /** Takes a place, or returns false when all {@code capacity} places are held. */
    boolean tryAcquire() {
        while (true) {
            int now = held.get();
            if (now >= capacity) {
                return false;
            }
            if (held.compareAndSet(now, now + 1)) {
                return true;
            }
        }
    }

    void release() {
        held.decrementAndGet();
    }

    int held() {
        return held.get();
    }

    int capacity() {
        return capacity;
    }
}
