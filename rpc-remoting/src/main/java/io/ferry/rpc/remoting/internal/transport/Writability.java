package io.ferry.rpc.remoting.internal.transport;

/**
 * How long a connection's outbound buffer has stood above its high water mark, in all. Written by the connection's
 * IO thread, read from anywhere.
 */
public final class Writability {
    /** Not a reading a ticker gives in practice: a ticker's readings may be negative, so -1 cannot mean "none". */
    private static final long WRITABLE = Long.MIN_VALUE;

    private volatile long unwritableSinceNanos = WRITABLE;
    private volatile long unwritableTotalNanos;

    /** IO thread: the channel's writability changed at {@code nowNanos}. */
    public void changed(boolean writable, long nowNanos) {
        long since = unwritableSinceNanos;
        if (writable && since != WRITABLE) {
            unwritableTotalNanos += nowNanos - since;
            unwritableSinceNanos = WRITABLE;
        } else if (!writable && since == WRITABLE) {
            unwritableSinceNanos = nowNanos;
        }
    }

    public long unwritableNanos(long nowNanos) {
        long since = unwritableSinceNanos;
        return unwritableTotalNanos + (since != WRITABLE ? Math.max(0, nowNanos - since) : 0);
    }
}
