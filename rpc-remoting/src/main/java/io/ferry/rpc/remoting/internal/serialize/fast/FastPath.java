package io.ferry.rpc.remoting.internal.serialize.fast;

import com.alibaba.com.caucho.hessian.io.Hessian2Output;

/**
 * Whether Ferry encodes with its own hessian2 writer ({@link FastHessian2Output}, the default) or hessian-lite's:
 * {@code -Dferry.serialization.fastpath=false} turns the fast path off, for a comparison or should a peer ever
 * disagree with it. Read once, when the first frame is encoded; the two write the same bytes.
 */
public final class FastPath {
    public static final String PROPERTY = "ferry.serialization.fastpath";
    private static final boolean ENABLED = !"false".equalsIgnoreCase(System.getProperty(PROPERTY, "true").trim());

    private FastPath() {
    }

    public static boolean enabled() {
        return ENABLED;
    }

    /** A new output of the chosen kind, with no stream yet. */
    public static Hessian2Output newOutput() {
        return ENABLED ? new FastHessian2Output() : new Hessian2Output();
    }
}
