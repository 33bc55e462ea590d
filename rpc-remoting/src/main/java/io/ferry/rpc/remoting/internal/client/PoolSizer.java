package io.ferry.rpc.remoting.internal.client;

/**
 * When an elastic pool opens another connection and when it lets one go. Time is a parameter of every decision, so
 * the rules are tested with a fake clock.
 *
 * <ul>
 *   <li><b>Grow</b> when every connection has stayed congested (unwritable, or more than the low water mark queued)
 *       for {@code growAfterNanos}: each call that finds no uncongested connection reports it, and a single call
 *       that finds one ends the episode. One connection is opened at a time, up to {@code max}; the next needs a
 *       new episode.</li>
 *   <li><b>Shrink</b>: a connection other than the first that no call has picked for {@code idleNanos} is let go
 *       (calls prefer the lowest connection that is not congested, so extras fall idle once the load passes).</li>
 * </ul>
 * Thread-safe: races between callers can only move an episode's start by the time between two calls.
 */
final class PoolSizer {
    private final int max;
    private final long growAfterNanos;
    private final long idleNanos;
    private volatile long congestedSinceNanos = -1;

    PoolSizer(int max, long growAfterNanos, long idleNanos) {
        this.max = max;
        this.growAfterNanos = growAfterNanos;
        this.idleNanos = idleNanos;
    }

    /** A call found a connection that is not congested: any episode of congestion is over. */
    void relieved() {
        if (congestedSinceNanos != -1) {
            congestedSinceNanos = -1;
        }
    }

    /**
     * A call found every connection congested at {@code nowNanos}: whether to open another now.
     *
     * @param size    connections open or opening
     * @param growing whether one is being opened already
     */
    boolean congested(long nowNanos, int size, boolean growing) {
        long since = congestedSinceNanos;
        if (since == -1) {
            congestedSinceNanos = nowNanos;
            since = nowNanos;
        }
        return size < max && !growing && nowNanos - since >= growAfterNanos;
    }

    /** A connection was added: congestion must last a whole new episode before the next one. */
    void grew() {
        congestedSinceNanos = -1;
    }

    /** Whether a connection last picked at {@code lastPickedNanos} has been idle long enough to let go. */
    boolean idle(long nowNanos, long lastPickedNanos) {
        return nowNanos - lastPickedNanos >= idleNanos;
    }

    long idleNanos() {
        return idleNanos;
    }
}
