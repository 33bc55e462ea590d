package io.ferry.rpc.remoting.internal.service;

import java.util.concurrent.atomic.LongAdder;

/**
 * What one exported service counts as its requests pass: those running in its chain now, and those dropped unrun
 * because their deadline had passed. Striped adders: many business threads add at once.
 */
public final class ServiceCounters {
    private final LongAdder inFlight = new LongAdder();
    private final LongAdder deadlineDrops = new LongAdder();

    public void started() {
        inFlight.increment();
    }

    public void ended() {
        inFlight.decrement();
    }

    public void droppedExpired() {
        deadlineDrops.increment();
    }

    /** Never below 0: an adder's sum read while one request starts and another ends may be off by one. */
    public int inFlight() {
        return (int) Math.max(0, inFlight.sum());
    }

    public long deadlineDrops() {
        return deadlineDrops.sum();
    }
}
