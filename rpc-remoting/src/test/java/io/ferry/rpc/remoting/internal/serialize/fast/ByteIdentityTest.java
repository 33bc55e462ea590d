package io.ferry.rpc.remoting.internal.serialize.fast;

import com.alibaba.com.caucho.hessian.io.Hessian2Input;
import com.alibaba.com.caucho.hessian.io.Hessian2Output;
import com.alibaba.com.caucho.hessian.io.SerializerFactory;
import io.ferry.rpc.remoting.internal.serialize.AllowedClasses;
import io.ferry.rpc.remoting.internal.serialize.SafeSerializerFactory;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * {@link FastHessian2Output} writes hessian-lite's bytes, exactly, for random object graphs: the property behind
 * turning it on. A failure names its seed; {@code -Dferry.test.seed=N} replays one.
 */
class ByteIdentityTest {
    private static final int SEEDS = 400;

    private final SerializerFactory plain = new SerializerFactory();
    private final SerializerFactory ferry = SafeSerializerFactory.unknownAsMaps(AllowedClasses.jdkOnly());

    @Test
    void randomGraphsAreWrittenByteForByteAsHessianLiteWritesThem() throws IOException {
        long first = Long.getLong("ferry.test.seed", System.nanoTime());
        int seeds = Long.getLong("ferry.test.seed") != null ? 1 : SEEDS;
        for (long seed = first; seed < first + seeds; seed++) {
            List<Object> values = values(seed);
            for (SerializerFactory factory : List.of(plain, ferry)) {
                byte[] expected = hessianLite(factory, values);
                byte[] actual = fast(factory, values);
                if (!Arrays.equals(expected, actual)) {
                    fail("seed " + seed + " (" + factory.getClass().getSimpleName() + "): bytes differ at "
                            + Arrays.mismatch(expected, actual) + " of " + expected.length + "/" + actual.length
                            + "\n  hessian-lite " + excerpt(expected, Arrays.mismatch(expected, actual))
                            + "\n  ferry        " + excerpt(actual, Arrays.mismatch(expected, actual)));
                }
            }
        }
    }

    @Test
    void stringsOnEveryChunkAndBufferBoundary() throws IOException {
        List<Object> values = new ArrayList<>();
        for (int length : new int[] {0x1f, 0x20, 0x3ff, 0x400, 8175, 8176, 8192, 0x7fff, 0x8000, 0x8001, 70_000}) {
            values.add("a".repeat(length));
            values.add("é".repeat(length));
            // a surrogate pair across the 32768-char chunk boundary
            values.add("b".repeat(0x7fff) + new String(Character.toChars(0x1f600)) + "c".repeat(length));
            values.add(new byte[length]);
            values.add(new String(Character.toChars(0x10400)).repeat(length / 2 + 1));
        }
        assertArrayEquals(hessianLite(plain, values), fast(plain, values));
    }

    @Test
    void hessianLiteReadsWhatTheFastOutputWrote() throws IOException {
        GraphGenerator generator = new GraphGenerator(42);
        GraphGenerator.Person person = generator.person(3);
        byte[] bytes = fast(plain, List.of(person, "after"));
        Hessian2Input in = new Hessian2Input(new ByteArrayInputStream(bytes));
        in.setSerializerFactory(plain);
        GraphGenerator.Person read = (GraphGenerator.Person) in.readObject();
        assertEquals(person.name, read.name);
        assertEquals(person.id, read.id);
        assertEquals(person.birthday, read.birthday);
        assertEquals(person.permissions, read.permissions);
        assertEquals("after", in.readString());
    }

    private static List<Object> values(long seed) {
        GraphGenerator generator = new GraphGenerator(seed);
        List<Object> values = new ArrayList<>();
        // as a request body: a few strings, then values sharing one reference and class table
        values.add(generator.string());
        values.add(generator.value(4));
        values.add(generator.value(3));
        values.add(generator.map(1));
        return values;
    }

    static byte[] hessianLite(SerializerFactory factory, List<Object> values) throws IOException {
        return write(new Hessian2Output(), factory, values);
    }

    static byte[] fast(SerializerFactory factory, List<Object> values) throws IOException {
        return write(new FastHessian2Output(), factory, values);
    }

    private static byte[] write(Hessian2Output out, SerializerFactory factory, List<Object> values)
            throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        out.init(bytes);
        out.setSerializerFactory(factory);
        for (Object value : values) {
            out.writeObject(value);
        }
        out.flush();
        return bytes.toByteArray();
    }

    private static String excerpt(byte[] bytes, int at) {
        int from = Math.max(0, at - 8);
        return HexFormat.ofDelimiter(" ").formatHex(bytes, from, Math.min(bytes.length, at + 16));
    }
}
