package io.ferry.rpc.remoting.internal.serialize.fast;

import com.alibaba.com.caucho.hessian.io.Hessian2Output;
import com.alibaba.com.caucho.hessian.io.SerializerFactory;
import io.ferry.rpc.remoting.internal.serialize.AllowedClasses;
import io.ferry.rpc.remoting.internal.serialize.SafeSerializerFactory;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.function.Supplier;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * {@link FastHessian2Output#writeByteStream} writes hessian-lite's bytes: chunks sized by the room left in the
 * buffer and by what each read returns, then an empty final chunk. Each case writes a fresh stream to each output.
 */
class ByteStreamTest {
    private static final int ONE_CHUNK = Hessian2Output.SIZE - 3;

    private final SerializerFactory plain = new SerializerFactory();
    private final SerializerFactory ferry = SafeSerializerFactory.unknownAsMaps(AllowedClasses.jdkOnly());

    /** An empty stream is the empty final chunk alone: one byte, 0x20. */
    @Test
    void emptyStreamIsTheEmptyFinalChunk() throws IOException {
        byte[] fast = streamAlone(new FastHessian2Output(), new byte[0]);
        assertEquals("20", HexFormat.of().formatHex(fast));
        assertArrayEquals(streamAlone(new Hessian2Output(), new byte[0]), fast);
    }

    /** A few bytes: one 'A' chunk with a two-byte length, then 0x20. */
    @Test
    void smallStreamIsOneChunkAndTheFinalOne() throws IOException {
        byte[] fast = streamAlone(new FastHessian2Output(), new byte[] {7, 8, 9});
        assertEquals("410003070809" + "20", HexFormat.of().formatHex(fast));
        assertArrayEquals(streamAlone(new Hessian2Output(), new byte[] {7, 8, 9}), fast);
    }

    /** Sizes around one full buffer (a chunk fills it exactly, then the final chunk needs a flush), and beyond. */
    @Test
    void streamsOnEveryChunkBoundaryAreWrittenAsHessianLiteWritesThem() throws IOException {
        for (int length : new int[] {0, 1, 15, 16, ONE_CHUNK - 1, ONE_CHUNK, ONE_CHUNK + 1, 2 * ONE_CHUNK,
                2 * ONE_CHUNK + 17, 70_000}) {
            // the room a first chunk would have: hessian-lite flushes first below 16, so 15, 16 and 17 pin that
            for (int room : new int[] {-3, 0, 15, 16, 17, 100, 7000}) {
                byte[] data = bytes(length);
                byte[] prefix = bytes(Hessian2Output.SIZE - 6 - room); // 'B', two length bytes (over 1023), the bytes
                assertSame("length " + length + " with room " + room, () -> List.of(prefix, stream(data), "after"));
            }
        }
    }

    /** A stream that returns fewer bytes than asked: the chunks follow its reads, as hessian-lite's do. */
    @Test
    void shortReadsGiveTheSameChunks() throws IOException {
        byte[] data = bytes(30_000);
        assertSame("short reads", () -> List.of("x", new TrickleStream(data, 1000), new TrickleStream(data, 1)));
    }

    /** hessian-lite's InputStreamSerializer writes a stream value of a graph through writeByteStream. */
    @Test
    void streamValuesInsideAGraph() throws IOException {
        byte[] data = bytes(20_000);
        assertSame("in a list and a field", () -> {
            Holder holder = new Holder();
            holder.name = "holder";
            holder.body = stream(data);
            List<Object> list = new ArrayList<>(List.of(stream(bytes(12)), holder, "tail"));
            list.add(null);
            return List.of(list, holder);
        });
    }

    static final class Holder implements Serializable {
        private static final long serialVersionUID = 1L;
        String name;
        InputStream body;
    }

    /** Returns at most {@code step} bytes a read. */
    private static final class TrickleStream extends ByteArrayInputStream {
        private final int step;

        TrickleStream(byte[] data, int step) {
            super(data);
            this.step = step;
        }

        @Override
        public synchronized int read(byte[] b, int off, int len) {
            return super.read(b, off, Math.min(len, step));
        }
    }

    private void assertSame(String what, Supplier<List<Object>> values) throws IOException {
        for (SerializerFactory factory : List.of(plain, ferry)) {
            byte[] expected = ByteIdentityTest.hessianLite(factory, values.get());
            byte[] actual = ByteIdentityTest.fast(factory, values.get());
            assertArrayEquals(expected, actual, what);
        }
    }

    private static byte[] streamAlone(Hessian2Output out, byte[] data) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        out.init(bytes);
        out.writeByteStream(stream(data));
        out.flush();
        return bytes.toByteArray();
    }

    private static InputStream stream(byte[] data) {
        return new ByteArrayInputStream(data);
    }

    private static byte[] bytes(int length) {
        byte[] bytes = new byte[length];
        new Random(length).nextBytes(bytes);
        return bytes;
    }
}
