package io.ferry.rpc.remoting.internal.serialize;

import io.netty.buffer.ByteBuf;

import java.io.InputStream;

/** A frame body as the stream hessian-lite reads ahead from; pointed at the next body when its input is reused. */
final class BodyStream extends InputStream {
    private ByteBuf body;

    void attach(ByteBuf next) {
        body = next;
    }

    @Override
    public int read() {
        return body.isReadable() ? body.readByte() & 0xff : -1;
    }

    @Override
    public int read(byte[] into, int offset, int length) {
        if (length == 0) {
            return 0;
        }
        int n = Math.min(length, body.readableBytes());
        if (n == 0) {
            return -1;
        }
        body.readBytes(into, offset, n);
        return n;
    }

    @Override
    public int available() {
        return body.readableBytes();
    }
}
