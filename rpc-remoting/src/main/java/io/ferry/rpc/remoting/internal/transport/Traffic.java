package io.ferry.rpc.remoting.internal.transport;

import io.ferry.rpc.remoting.TransportStats;

import java.util.concurrent.atomic.LongAdder;

/**
 * The counters of one side of the transport, added to by every IO thread of that side: striped adders, so the
 * threads do not contend for one cache line.
 */
public final class Traffic {
    private final LongAdder read = new LongAdder();
    private final LongAdder written = new LongAdder();
    private final LongAdder pauses = new LongAdder();

    void read(long bytes) {
        read.add(bytes);
    }

    void written(long bytes) {
        written.add(bytes);
    }

    /** A connection stopped for a peer that does not keep up. */
    public void paused() {
        pauses.increment();
    }

    public TransportStats snapshot() {
        return new TransportStats(read.sum(), written.sum(), pauses.sum());
    }
}
