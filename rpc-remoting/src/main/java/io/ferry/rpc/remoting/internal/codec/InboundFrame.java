package io.ferry.rpc.remoting.internal.codec;

import io.netty.buffer.ByteBuf;

/**
 * One decoded frame whose header passed every check: the body is complete and within the payload limit. The body
 * is a retained slice: whoever takes the frame must {@link #release()} it exactly once.
 */
public final class InboundFrame {
    private final byte flag;
    private final byte status;
    private final long id;
    private final ByteBuf body;

    public InboundFrame(byte flag, byte status, long id, ByteBuf body) {
        this.flag = flag;
        this.status = status;
        this.id = id;
        this.body = body;
    }

    public byte flag() {
        return flag;
    }

    public byte status() {
        return status;
    }

    public long id() {
        return id;
    }

    public ByteBuf body() {
        return body;
    }

    public boolean isRequest() {
        return Frame.isRequest(flag);
    }

    public boolean isTwoWay() {
        return Frame.isTwoWay(flag);
    }

    public boolean isEvent() {
        return Frame.isEvent(flag);
    }

    public byte serialization() {
        return Frame.serialization(flag);
    }

    /** A heartbeat: an event whose body is hessian2's null. */
    public boolean isHeartbeat() {
        return isEvent() && body.readableBytes() == 1 && body.getByte(body.readerIndex()) == Frame.HESSIAN2_NULL;
    }

    public void release() {
        body.release();
    }
}
