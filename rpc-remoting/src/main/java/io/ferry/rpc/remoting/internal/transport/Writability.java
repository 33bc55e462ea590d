package io.ferry.rpc.remoting.internal.transport;

/**
 * How long a connection's outbound buffer has stood above its high water mark, in all. Written by the connection's
 * IO thread, read from anywhere.
 */
public final class Writability {
    private volatile long unwritableSinceNanos = -1;
    private volatile long unwritableTotalNanos;

    /** IO thread: the channel's writability changed at {@code nowNanos}. */
    public void changed(boolean writable, long nowNanos) {
        long since = unwritableSinceNanos;
        if (writable && since >= 0) {
            unwritableTotalNanos += nowNanos - since;
            unwritableSinceNanos = -1;
        } else if (!writable && since < 0) {
            unwritableSinceNanos = nowNanos;
        }
    }

    /** Since when the buffer has been above the mark, or -1 when it is not. */
    public long unwritableSinceNanos() {
        return unwritableSinceNanos;
    }

    public long unwritableNanos(long nowNanos) {
        long since = unwritableSinceNanos;
        return unwritableTotalNanos + (since >= 0 ? Math.max(0, nowNanos - since) : 0);
    }
}
