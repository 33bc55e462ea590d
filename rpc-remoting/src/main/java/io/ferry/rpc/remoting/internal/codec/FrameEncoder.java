package io.ferry.rpc.remoting.internal.codec;

import com.alibaba.com.caucho.hessian.io.Hessian2Output;
import io.ferry.rpc.RpcStatus;
import io.ferry.rpc.spi.WireText;
import io.ferry.rpc.remoting.internal.serialize.SafeSerializerFactory;
import io.ferry.rpc.remoting.internal.serialize.fast.FastHessian2Output;
import io.ferry.rpc.remoting.internal.serialize.fast.HessianCodec;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.util.concurrent.FastThreadLocal;

import java.io.IOException;
import java.io.OutputStream;

/**
 * Builds whole frames into one buffer, header and body, so that each goes out in a single write. Encoding runs on
 * the caller's thread; the payload limit is checked before anything is handed to the channel.
 */
public final class FrameEncoder {

    /** Writes a body with hessian2. */
    @FunctionalInterface
    public interface BodyWriter {
        void write(Hessian2Output out) throws IOException;
    }

    /** The encoded body is larger than the payload limit; nothing was sent. */
    public static final class PayloadTooLargeException extends IOException {
        private static final long serialVersionUID = 1L;
        private final int length;

        PayloadTooLargeException(int length, int limit) {
            super("payload of at least " + length + " bytes exceeds the limit of " + limit + " bytes");
            this.length = length;
        }

        public int length() {
            return length;
        }
    }

    /** One hessian output (and its 8 KiB buffer) per thread, instead of a new one per frame. */
    private static final FastThreadLocal<ReusableOutput> OUTPUTS = new FastThreadLocal<>() {
        @Override
        protected ReusableOutput initialValue() {
            return new ReusableOutput();
        }
    };

    private FrameEncoder() {
    }

    /**
     * A thread's hessian output ({@link HessianCodec}: Ferry's writer or hessian-lite's, the same bytes). Giving it
     * back clears its references, class definitions and buffer (and drops the stream), so every frame starts afresh and
     * taking it needs no second clearing; a frame encoded while another is being encoded on the same thread (a
     * serializer making a call) gets an output of its own.
     */
    private static final class ReusableOutput {
        private final Hessian2Output output =
                HessianCodec.configured() == HessianCodec.FERRY ? new FastHessian2Output() : new AttachableOutput();
        private boolean busy;

        Hessian2Output take(OutputStream stream) {
            if (busy) {
                Hessian2Output own = HessianCodec.configured().newOutput();
                own.init(stream);
                return own;
            }
            busy = true;
            if (output instanceof AttachableOutput attachable) {
                attachable.attach(stream);
            } else {
                output.init(stream); // Ferry's output clears only what was used: nothing to save
            }
            return output;
        }

        void giveBack(Hessian2Output used) {
            if (used == output) {
                output.init(null); // drop the stream and any references to the encoded values
                busy = false;
            }
        }
    }

    /** A hessian output that takes a stream without clearing itself again: its last use left it clear. */
    private static final class AttachableOutput extends Hessian2Output {
        AttachableOutput() {
            super(null);
        }

        void attach(OutputStream stream) {
            _os = stream;
        }
    }

    /**
     * Where hessian puts a frame's body. The buffer is taken at the first write, sized to it: hessian holds a body
     * in its own buffer (8 KiB) and hands it over at the flush, so most frames get one allocation of their size
     * instead of a guess that grows (a second allocation, a copy and a free on every call whose frame passed the
     * guess). An encoding stops as soon as the body passes the limit.
     */
    private static final class FrameBody extends OutputStream {
        private final ByteBufAllocator alloc;
        private final int limit;
        private ByteBuf buf;

        FrameBody(ByteBufAllocator alloc, int limit) {
            this.alloc = alloc;
            this.limit = limit;
        }

        private ByteBuf room(int more) throws PayloadTooLargeException {
            if (buf == null) {
                if (more > limit) {
                    throw new PayloadTooLargeException(more, limit);
                }
                buf = alloc.ioBuffer(Frame.HEADER_LENGTH + more);
                buf.writerIndex(Frame.HEADER_LENGTH);
                return buf;
            }
            long length = (long) buf.writerIndex() - Frame.HEADER_LENGTH + more;
            if (length > limit) {
                throw new PayloadTooLargeException(length > Integer.MAX_VALUE ? Integer.MAX_VALUE : (int) length,
                        limit);
            }
            return buf;
        }

        @Override
        public void write(int b) throws IOException {
            room(1).writeByte(b);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            room(len).writeBytes(b, off, len);
        }

        /** The frame, header still to fill; an empty body gets a buffer for the header alone. */
        ByteBuf frame() {
            if (buf == null) {
                buf = alloc.ioBuffer(Frame.HEADER_LENGTH);
                buf.writerIndex(Frame.HEADER_LENGTH);
            }
            return buf;
        }

        void releaseIfTaken() {
            if (buf != null) {
                buf.release();
                buf = null;
            }
        }
    }

    /**
     * Encodes one frame. The returned buffer is the caller's to write or release.
     *
     * @throws PayloadTooLargeException if the body is over {@code payloadLimit}
     * @throws IOException              if the body cannot be serialized
     */
    public static ByteBuf encode(ByteBufAllocator alloc, int flag, byte status, long id,
                                 SafeSerializerFactory factory, int payloadLimit, BodyWriter body) throws IOException {
        FrameBody sink = new FrameBody(alloc, payloadLimit);
        boolean ok = false;
        try {
            ReusableOutput reusable = OUTPUTS.get();
            Hessian2Output out = reusable.take(sink);
            try {
                out.setSerializerFactory(factory);
                body.write(out);
                out.flush();
            } finally {
                reusable.giveBack(out);
            }
            ByteBuf buf = sink.frame();
            int length = buf.writerIndex() - Frame.HEADER_LENGTH; // within the limit: FrameBody checked each write
            buf.setShort(0, Frame.MAGIC);
            buf.setByte(2, flag);
            buf.setByte(3, status);
            buf.setLong(4, id);
            buf.setInt(12, length);
            ok = true;
            return buf;
        } catch (RuntimeException e) {
            throw new IOException(e.getClass().getName() + ": " + e.getMessage(), e);
        } finally {
            if (!ok) {
                sink.releaseIfTaken();
            }
        }
    }

    /**
     * An error answer: a status other than OK and one string body, in hessian2. The message often quotes the request
     * (a service or class name): its control characters are escaped ({@link WireText}), so that the consumer, which
     * may well log it, gets no forged line.
     */
    public static ByteBuf errorResponse(ByteBufAllocator alloc, long id, RpcStatus status, String message) {
        return errorResponse(alloc, id, status.wireCode(), message);
    }

    public static ByteBuf errorResponse(ByteBufAllocator alloc, long id, byte status, String message) {
        String text = WireText.escape(message);
        try {
            return encode(alloc, Frame.HESSIAN2, status, id, SafeSerializerFactory.jdkOnly(), Integer.MAX_VALUE,
                    out -> out.writeString(text));
        } catch (IOException e) {
            throw new IllegalStateException("cannot encode a string", e);
        }
    }

    /** A heartbeat request: two-way event with a null body. */
    public static ByteBuf heartbeatRequest(ByteBufAllocator alloc, long id) {
        return fixedFrame(alloc, Frame.FLAG_REQUEST | Frame.FLAG_TWO_WAY | Frame.FLAG_EVENT | Frame.HESSIAN2,
                (byte) 0, id);
    }

    /**
     * Echoes a heartbeat: the request's serialization and body, with the event flag and status OK, as a Dubbo
     * provider does.
     */
    public static ByteBuf heartbeatResponse(ByteBufAllocator alloc, InboundFrame request) {
        ByteBuf body = request.body();
        ByteBuf buf = alloc.ioBuffer(Frame.HEADER_LENGTH + body.readableBytes());
        buf.writeShort(Frame.MAGIC);
        buf.writeByte(Frame.FLAG_EVENT | request.serialization());
        buf.writeByte(Frame.STATUS_OK);
        buf.writeLong(request.id());
        buf.writeInt(body.readableBytes());
        buf.writeBytes(body, body.readerIndex(), body.readableBytes());
        return buf;
    }

    /** A readonly ("R") or writeable ("W") event, one-way, in hessian2. */
    public static ByteBuf readonlyEvent(ByteBufAllocator alloc, long id, boolean readonly) {
        ByteBuf buf = alloc.ioBuffer(Frame.HEADER_LENGTH + 2);
        buf.writeShort(Frame.MAGIC);
        buf.writeByte(Frame.FLAG_REQUEST | Frame.FLAG_EVENT | Frame.HESSIAN2);
        buf.writeByte(0);
        buf.writeLong(id);
        buf.writeInt(2);
        buf.writeByte(0x01);
        buf.writeByte(readonly ? 'R' : 'W');
        return buf;
    }

    private static ByteBuf fixedFrame(ByteBufAllocator alloc, int flag, byte status, long id) {
        ByteBuf buf = alloc.ioBuffer(Frame.HEADER_LENGTH + 1);
        buf.writeShort(Frame.MAGIC);
        buf.writeByte(flag);
        buf.writeByte(status);
        buf.writeLong(id);
        buf.writeInt(1);
        buf.writeByte(Frame.HESSIAN2_NULL);
        return buf;
    }
}
