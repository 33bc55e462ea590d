package io.ferry.rpc.remoting.internal.codec;

import java.util.concurrent.atomic.AtomicLong;

/**
 * What a provider allows frames that arrive in pieces, shared by all its connections: each frame must complete
 * within {@code frameTimeoutNanos} of its first byte, and the bodies of all frames still incomplete may hold at
 * most {@code budgetBytes} between them. A frame that arrives whole in one read never counts against the budget.
 */
public final class PartialFrames {
    private static final PartialFrames UNLIMITED = new PartialFrames(0, Long.MAX_VALUE);

    private final long frameTimeoutNanos;
    private final long budgetBytes;
    private final AtomicLong held = new AtomicLong();

    /** @param frameTimeoutNanos 0 for no deadline */
    public PartialFrames(long frameTimeoutNanos, long budgetBytes) {
        this.frameTimeoutNanos = frameTimeoutNanos;
        this.budgetBytes = budgetBytes;
    }

    /** No deadline and no budget: the consumer side, whose calls have timeouts of their own. */
    public static PartialFrames unlimited() {
        return UNLIMITED;
    }

    long frameTimeoutNanos() {
        return frameTimeoutNanos;
    }

    long budgetBytes() {
        return budgetBytes;
    }

    /** Takes {@code bytes} from the budget, or nothing and false when that would overdraw it. */
    boolean tryHold(long bytes) {
        if (budgetBytes == Long.MAX_VALUE) {
            return true;
        }
        long now;
        do {
            now = held.get();
            if (now + bytes > budgetBytes) {
                return false;
            }
        } while (!held.compareAndSet(now, now + bytes));
        return true;
    }

    void release(long bytes) {
        if (budgetBytes != Long.MAX_VALUE && bytes > 0) {
            held.addAndGet(-bytes);
        }
    }

    /** Bytes held by incomplete frames right now (for the connection view and tests). */
    public long heldBytes() {
        return held.get();
    }
}
