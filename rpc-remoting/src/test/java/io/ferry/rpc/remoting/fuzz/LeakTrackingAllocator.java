package io.ferry.rpc.remoting.fuzz;

import io.netty.buffer.AbstractByteBufAllocator;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;

import java.util.ArrayList;
import java.util.List;

/**
 * Hands out plain buffers and remembers each, so a fuzz input can be checked for buffers it left unreleased right
 * after it ran, not whenever the garbage collector lets the leak detector notice.
 */
public final class LeakTrackingAllocator extends AbstractByteBufAllocator {
    private final List<ByteBuf> handedOut = new ArrayList<>();

    public LeakTrackingAllocator() {
        super(false);
    }

    @Override
    protected ByteBuf newHeapBuffer(int initialCapacity, int maxCapacity) {
        return track(Unpooled.buffer(initialCapacity, maxCapacity));
    }

    @Override
    protected ByteBuf newDirectBuffer(int initialCapacity, int maxCapacity) {
        return track(Unpooled.buffer(initialCapacity, maxCapacity));
    }

    @Override
    public boolean isDirectBufferPooled() {
        return false;
    }

    private synchronized ByteBuf track(ByteBuf buf) {
        handedOut.add(buf);
        return buf;
    }

    /** Tracks a buffer made elsewhere (the fuzz input itself). */
    public synchronized ByteBuf tracked(ByteBuf buf) {
        return track(buf);
    }

    /** Fails when a buffer handed out since the last check is still referenced. */
    public synchronized void assertAllReleased(String what) {
        int leaked = 0;
        StringBuilder first = new StringBuilder();
        for (ByteBuf buf : handedOut) {
            if (buf.refCnt() > 0 && buf.capacity() > 0) { // the shared empty buffer is never released
                if (leaked++ == 0) {
                    first.append(buf).append(": ").append(io.netty.buffer.ByteBufUtil.hexDump(buf, 0,
                            Math.min(32, buf.writerIndex())));
                }
            }
        }
        handedOut.clear();
        if (leaked > 0) {
            throw new AssertionError(what + " left " + leaked + " buffer(s) unreleased, the first " + first);
        }
    }
}
