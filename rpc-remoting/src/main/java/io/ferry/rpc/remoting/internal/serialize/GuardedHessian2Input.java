package io.ferry.rpc.remoting.internal.serialize;

import com.alibaba.com.caucho.hessian.io.Hessian2Input;
import com.alibaba.com.caucho.hessian.io.HessianProtocolException;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufInputStream;

/**
 * A hessian2 reader over one frame body that knows how many bytes are left and how deep it is, so that
 * {@link GuardedDeserializer} can refuse a claimed length the body cannot hold and nesting past a bound.
 * Not thread-safe: one per decode.
 */
public final class GuardedHessian2Input extends Hessian2Input {
    /** Deepest nesting of objects, lists and maps accepted; far beyond any real value, far below a stack overflow. */
    public static final int MAX_DEPTH = 256;
    /** Hessian2Input reads ahead into a buffer of its own; this many bytes may sit there besides the stream's. */
    private static final int READ_AHEAD = 1024;

    private final ByteBuf body;
    private int depth;

    /** Reads {@code body} from its reader index; the buffer's ownership stays with the caller. */
    public GuardedHessian2Input(ByteBuf body, SafeSerializerFactory factory) {
        super(new ByteBufInputStream(body));
        this.body = body;
        setSerializerFactory(factory);
    }

    /** An upper bound of the bytes not yet decoded. */
    int remainingBytesAtMost() {
        return body.readableBytes() + READ_AHEAD;
    }

    void checkClaimedLength(int length, String what) throws HessianProtocolException {
        if (length < 0 || length > remainingBytesAtMost()) {
            throw new HessianProtocolException(what + " claims " + length + " elements but the body has at most "
                    + remainingBytesAtMost() + " bytes left");
        }
    }

    // Every nested value, whichever deserializer reads it, comes back through one of these.

    @Override
    public Object readObject() throws java.io.IOException {
        enter();
        try {
            return super.readObject();
        } finally {
            depth--;
        }
    }

    @Override
    public Object readObject(Class cl) throws java.io.IOException {
        enter();
        try {
            return super.readObject(cl);
        } finally {
            depth--;
        }
    }

    @Override
    public Object readObject(Class cl, Class<?>... expectedTypes) throws java.io.IOException {
        enter();
        try {
            return super.readObject(cl, expectedTypes);
        } finally {
            depth--;
        }
    }

    private void enter() throws HessianProtocolException {
        if (++depth > MAX_DEPTH) {
            depth--;
            throw new HessianProtocolException("value nested deeper than " + MAX_DEPTH + " levels");
        }
    }
}
