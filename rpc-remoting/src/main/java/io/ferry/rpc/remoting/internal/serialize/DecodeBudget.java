package io.ferry.rpc.remoting.internal.serialize;

import com.alibaba.com.caucho.hessian.io.HessianProtocolException;

import java.util.Arrays;

/**
 * What one body may cost to decode, counted as {@link GuardedHessian2Input} reads it. Hessian lets a value repeat
 * an earlier one by reference, so a few bytes can describe a graph whose every walk (hashCode, equals, toString, a
 * service's own loop) takes exponential time: 31 levels of lists, each holding the one below twice, are 94 bytes
 * and 2^31 elements deep down. So a value counts once for every place it appears: a back-reference costs the size
 * of the value it repeats, as the service will see it.
 *
 * <p>Values are counted in frames, one per {@code readObject} call: a frame's size is one plus the sizes of the
 * values read inside it, and is remembered for the reference the frame registered, so that a back-reference to it
 * later adds that size again. Not thread-safe: one per decode.
 */
final class DecodeBudget {
    /**
     * Most values one body may hold, counting each value once for every place it appears. Far above a real call
     * (the benchmark's page of 15 users is a few hundred), and what an 8 MiB payload holds at 4 bytes a value.
     */
    static final int MAX_VALUES = 2_000_000;
    /** Most back-references one body may follow; real graphs share a few objects, not half a million. */
    static final int MAX_BACK_REFERENCES = 500_000;

    private static final int INITIAL_DEPTH = 16;
    /** Tables longer than this are dropped at {@link #reset}, not kept for the next body. */
    private static final int KEPT_LENGTH = 1024;

    /** Per open frame, by depth (0: the body itself): the sizes of the values read inside it so far. */
    private long[] inside = new long[INITIAL_DEPTH];
    /** Per open frame: the first reference it registered, or -1. */
    private int[] ownRef = new int[INITIAL_DEPTH];
    /** Per reference index: the size of its value, once its frame has closed (0 while it is still being read). */
    private int[] refSize = new int[INITIAL_DEPTH];
    private int depth;
    private long backReferences;

    DecodeBudget() {
        ownRef[0] = -1;
    }

    /** Empty again, for the next body of an input that is reused; what a large body grew is not kept. */
    void reset() {
        depth = 0;
        backReferences = 0;
        inside[0] = 0;
        ownRef[0] = -1;
        if (inside.length > KEPT_LENGTH) {
            inside = new long[INITIAL_DEPTH];
            ownRef = new int[INITIAL_DEPTH];
            ownRef[0] = -1;
        }
        if (refSize.length > KEPT_LENGTH) {
            refSize = new int[INITIAL_DEPTH];
        }
    }

    /** How many frames are open: the nesting of the value being read. */
    int depth() {
        return depth;
    }

    /** A {@code readObject} begins. */
    void open() {
        depth++;
        if (depth >= inside.length) {
            inside = Arrays.copyOf(inside, inside.length * 2);
            ownRef = Arrays.copyOf(ownRef, ownRef.length * 2);
        }
        inside[depth] = 0;
        ownRef[depth] = -1;
    }

    /** The {@code readObject} that opened the innermost frame returned: its size goes to the frame around it. */
    void close() throws HessianProtocolException {
        long size = 1 + inside[depth];
        int ref = ownRef[depth];
        if (ref >= 0) {
            refSize[ref] = (int) Math.min(size, Integer.MAX_VALUE);
        }
        depth--;
        inside[depth] += size;
        if (inside[depth] > MAX_VALUES) {
            throw new BudgetExceededException("more than " + MAX_VALUES + " values, counting a value again for"
                    + " every back-reference that repeats it (DecodeBudget.MAX_VALUES)");
        }
        if (backReferences > MAX_BACK_REFERENCES) {
            throw new BudgetExceededException("more than " + MAX_BACK_REFERENCES + " back-references"
                    + " (DecodeBudget.MAX_BACK_REFERENCES)");
        }
    }

    /** The {@code readObject} of the innermost frame threw: the frame is dropped, the error goes on. */
    void abandon() {
        depth--;
    }

    /** The innermost frame registered reference {@code index} (its own value, unless it did so before). */
    void referenceAdded(int index) {
        if (index >= refSize.length) {
            refSize = Arrays.copyOf(refSize, Math.max(refSize.length * 2, index + 1));
        }
        refSize[index] = 0; // still being read; and not a size left from an earlier body
        if (ownRef[depth] < 0) {
            ownRef[depth] = index;
        }
    }

    /** The innermost frame follows a back-reference to {@code index}: the value it repeats counts again. */
    void backReference(int index) {
        backReferences++;
        inside[depth] += index < refSize.length ? refSize[index] : 0;
    }

    long backReferences() {
        return backReferences;
    }

    /** Values counted so far, back-references expanded; frames still open count what they have read. */
    long values() {
        long sum = 0;
        for (int d = 0; d <= depth; d++) {
            sum += inside[d];
        }
        return sum;
    }

    /** A budget ran out; the message names it. */
    static final class BudgetExceededException extends HessianProtocolException {
        private static final long serialVersionUID = 1L;

        BudgetExceededException(String what) {
            super("decode budget exceeded: " + what);
        }
    }
}
