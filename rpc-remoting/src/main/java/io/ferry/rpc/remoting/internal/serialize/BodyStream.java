package io.ferry.rpc.remoting.internal.serialize;

import io.netty.buffer.ByteBuf;

import java.io.IOException;
import java.io.InputStream;

/** A frame body as the stream hessian-lite reads ahead from; pointed at the next body when its input is reused. */
final class BodyStream extends InputStream {
    private ByteBuf body;

    void attach(ByteBuf next) {
        body = next;
    }

    @Override
    public int read() throws IOException {
        return body().isReadable() ? body.readByte() & 0xff : -1;
    }

    @Override
    public int read(byte[] into, int offset, int length) throws IOException {
        if (length == 0) {
            return 0;
        }
        int n = Math.min(length, body().readableBytes());
        if (n == 0) {
            return -1;
        }
        body.readBytes(into, offset, n);
        return n;
    }

    @Override
    public int available() {
        return body == null ? 0 : body.readableBytes();
    }

    /** The body; none once its decode has ended (a lazily read value must not read the next call's bytes). */
    private ByteBuf body() throws IOException {
        if (body == null) {
            throw new IOException("read after the body's decode ended");
        }
        return body;
    }
}
