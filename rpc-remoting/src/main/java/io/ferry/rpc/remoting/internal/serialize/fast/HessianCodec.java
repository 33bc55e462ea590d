package io.ferry.rpc.remoting.internal.serialize.fast;

import com.alibaba.com.caucho.hessian.io.Hessian2Output;

/**
 * Which hessian2 code Ferry runs: its own fast path (the default), which writes the same bytes as hessian-lite
 * ({@link FastHessian2Output}) and reads strings without hessian-lite's char-by-char builder, or hessian-lite alone.
 * {@code -Dferry.serialization.fastpath=false} chooses hessian-lite, for a comparison or should a peer ever
 * disagree; it is read once, when first needed. Tests and benchmarks name the codec instead.
 */
public enum HessianCodec {
    HESSIAN_LITE,
    FERRY;

    public static final String PROPERTY = "ferry.serialization.fastpath";
    private static final HessianCodec CONFIGURED =
            "false".equalsIgnoreCase(System.getProperty(PROPERTY, "true").trim()) ? HESSIAN_LITE : FERRY;

    public static HessianCodec configured() {
        return CONFIGURED;
    }

    /** A new output of this codec, with no stream yet. */
    public Hessian2Output newOutput() {
        return this == FERRY ? new FastHessian2Output() : new Hessian2Output();
    }
}
