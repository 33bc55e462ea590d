package io.ferry.rpc.remoting;

import com.alibaba.com.caucho.hessian.io.Hessian2Output;
import com.alibaba.com.caucho.hessian.io.SerializerFactory;
import io.ferry.rpc.remoting.internal.codec.ErrorBodies;
import io.ferry.rpc.remoting.internal.codec.Frame;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufOutputStream;
import io.netty.buffer.Unpooled;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.HashMap;
import java.util.Map;

/** A consumer that writes whatever bytes a test wants, to see how a provider answers crafted frames. */
final class RawPeer implements AutoCloseable {
    private final Socket socket;
    private final DataInputStream in;
    private final OutputStream out;

    RawPeer(InetSocketAddress address) throws IOException {
        socket = new Socket(address.getAddress(), address.getPort());
        socket.setSoTimeout(10_000);
        in = new DataInputStream(socket.getInputStream());
        out = socket.getOutputStream();
    }

    /** Writes the head strings of a request with a permissive (non-Ferry) hessian factory, then {@code rest}. */
    static byte[] body(String service, String method, String descriptor, BodyPart rest) throws IOException {
        ByteBuf buf = Unpooled.buffer();
        Hessian2Output h = new Hessian2Output(new ByteBufOutputStream(buf));
        h.setSerializerFactory(new SerializerFactory());
        h.writeString("2.0.2");
        h.writeString(service);
        h.writeString("0.0.0");
        h.writeString(method);
        h.writeString(descriptor);
        rest.write(h, buf);
        h.flush();
        byte[] bytes = new byte[buf.readableBytes()];
        buf.readBytes(bytes);
        return bytes;
    }

    /** Writes raw bytes after the head: flush hessian's buffer first. */
    static BodyPart raw(byte[] bytes) {
        return (h, buf) -> {
            h.flush();
            buf.writeBytes(bytes);
        };
    }

    static BodyPart objects(Object... values) {
        return (h, buf) -> {
            for (Object v : values) {
                h.writeObject(v);
            }
        };
    }

    static Map<String, Object> attachments(Object... keyValues) {
        Map<String, Object> map = new HashMap<>();
        for (int i = 0; i < keyValues.length; i += 2) {
            map.put((String) keyValues[i], keyValues[i + 1]);
        }
        return map;
    }

    interface BodyPart {
        void write(Hessian2Output h, ByteBuf buf) throws IOException;
    }

    /** A two-way hessian2 request frame around {@code body}. */
    static byte[] frame(long id, byte[] body) {
        ByteBuf frame = Unpooled.buffer();
        frame.writeShort(Frame.MAGIC).writeByte(0xC2).writeByte(0).writeLong(id).writeInt(body.length).writeBytes(body);
        byte[] bytes = new byte[frame.readableBytes()];
        frame.readBytes(bytes);
        return bytes;
    }

    void sendRequest(long id, byte[] body) throws IOException {
        out.write(frame(id, body));
        out.flush();
    }

    /** Reads one answer: its status and, for an error, its message. */
    Answer readAnswer() throws IOException {
        byte[] header = new byte[16];
        in.readFully(header);
        ByteBuf h = Unpooled.wrappedBuffer(header);
        byte[] body = new byte[h.getInt(12)];
        in.readFully(body);
        String message = h.getByte(3) == Frame.STATUS_OK ? null
                : ErrorBodies.readString(Frame.serialization(h.getByte(2)), Unpooled.wrappedBuffer(body));
        return new Answer(h.getLong(4), h.getByte(3), message);
    }

    record Answer(long id, byte status, String message) {
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
