package io.ferry.rpc.remoting.internal.serialize;

import com.alibaba.com.caucho.hessian.io.Hessian2Output;
import io.ferry.rpc.ClassAllowList;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.Serializable;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

/**
 * A thread's reused input registers a class definition it has read before, byte for byte, without reading it again;
 * any other definition, even of the same class, is read afresh.
 */
class ClassDefinitionsTest {
    private final SafeSerializerFactory factory = new SafeSerializerFactory(AllowedClasses.forServices(Set.of(),
            ClassAllowList.builder().allowPackage(ClassDefinitionsTest.class.getPackageName()).build()));
    private final SafeSerializerFactory otherFactory = new SafeSerializerFactory(AllowedClasses.forServices(Set.of(),
            ClassAllowList.builder().allowPackage(ClassDefinitionsTest.class.getPackageName()).build()));

    @Test
    void theSameDefinitionInTheNextBodyIsTheDefinitionMadeBefore() throws IOException {
        byte[] bytes = write(List.of(new Point(1, 2, "a")));
        Object first = definitionRead(bytes, factory);
        Object second = definitionRead(bytes, factory);
        assertSame(first, second);
        assertEquals(new Point(1, 2, "a").toString(), read(bytes, factory).toString());
    }

    @Test
    void otherBytesForTheSameClassOrAnotherFactoryAreReadAfresh() throws IOException {
        byte[] xy = definedAs("x", "y");
        byte[] yx = definedAs("y", "x");
        assertEquals("Point(1, 2, null)", read(xy, factory).toString());
        assertEquals("Point(2, 1, null)", read(yx, factory).toString()); // same class, names swapped: not mixed up
        assertEquals("Point(1, 2, null)", read(xy, factory).toString());
        assertNotSame(definitionRead(xy, factory), definitionRead(xy, otherFactory));
    }

    @Test
    void aDefinitionIsRememberedWithTheFactoryThatReadItNotTheOneTheInputWasOpenedWith() throws IOException {
        byte[] bytes = write(List.of(new Point(1, 2, "a")));
        Object withOther = definitionRead(bytes, factory, otherFactory); // as a request's arguments are read
        assertSame(withOther, definitionRead(bytes, factory, otherFactory));
        assertNotSame(withOther, definitionRead(bytes, factory, factory));
    }

    @Test
    void readingWithAnExpectedClassReusesTheDefinitionToo() throws IOException {
        byte[] bytes = write(List.of(new Point(3, 4, "b")));
        Object[] definitions = new Object[2];
        for (int time = 0; time < 2; time++) {
            GuardedHessian2Input in = GuardedHessian2Input.open(Unpooled.wrappedBuffer(bytes), factory);
            try {
                Object read = time == 0 ? in.readObject(Point.class) : in.readObject(Point.class, Integer.class);
                assertEquals("Point(3, 4, b)", read.toString());
                definitions[time] = ClassDefinitions.definitionAt(in, 0);
            } finally {
                in.release();
            }
        }
        assertSame(definitions[0], definitions[1]);
    }

    @Test
    void definitionBytesEndWhereTheLastNameEnds() {
        byte[] def = bytes('C', 0x05, "a.B\u00e9\u20ac", 0x92, 0x01, "x", 'S', 0x00, 0x02, "\u00e9y");
        int length = def.length;
        assertEquals(length, DefinitionBytes.end(def, 0, length));
        for (int cut = 1; cut < length; cut++) {
            assertEquals(-1, DefinitionBytes.end(def, 0, cut), "cut at " + cut);
        }
        assertEquals(-1, DefinitionBytes.end(bytes('C', 'R', 0x00, 0x01, "a"), 0, 5)); // a chunked name: not followed
        assertEquals(-1, DefinitionBytes.end(bytes('C', 0x01, "a", 0x8f), 0, 4)); // a negative field count
        assertEquals(-1, DefinitionBytes.end(bytes('N'), 0, 1));
    }

    /** The definition a reused input registered for the body's first object. */
    private static Object definitionRead(byte[] body, SafeSerializerFactory factory) throws IOException {
        return definitionRead(body, factory, factory);
    }

    /** The same, for an input opened with {@code opened} whose factory is then set to {@code reading}. */
    private static Object definitionRead(byte[] body, SafeSerializerFactory opened, SafeSerializerFactory reading)
            throws IOException {
        GuardedHessian2Input in = GuardedHessian2Input.open(Unpooled.wrappedBuffer(body), opened);
        try {
            in.setSerializerFactory(reading);
            in.readObject();
            return ClassDefinitions.definitionAt(in, 0);
        } finally {
            in.release();
        }
    }

    private static Object read(byte[] body, SafeSerializerFactory factory) throws IOException {
        GuardedHessian2Input in = GuardedHessian2Input.open(Unpooled.wrappedBuffer(body), factory);
        try {
            return in.readObject();
        } finally {
            in.release();
        }
    }

    private byte[] write(List<Object> values) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        Hessian2Output out = new Hessian2Output(bytes);
        out.setSerializerFactory(factory);
        for (Object value : values) {
            out.writeObject(value);
        }
        out.flush();
        return bytes.toByteArray();
    }

    /** A Point whose definition names its two int fields in this order, with the values 1 and 2. */
    private byte[] definedAs(String first, String second) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        Hessian2Output out = new Hessian2Output(bytes);
        out.writeObjectBegin(Point.class.getName());
        out.writeClassFieldLength(2);
        out.writeString(first);
        out.writeString(second);
        out.writeObjectBegin(Point.class.getName());
        out.writeInt(1);
        out.writeInt(2);
        out.flush();
        return bytes.toByteArray();
    }

    /** Ints as bytes, strings as their UTF-8. */
    private static byte[] bytes(Object... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (Object part : parts) {
            if (part instanceof String s) {
                out.writeBytes(s.getBytes(StandardCharsets.UTF_8));
            } else if (part instanceof Character c) {
                out.write(c);
            } else {
                out.write(((Number) part).intValue());
            }
        }
        return out.toByteArray();
    }

    static final class Point implements Serializable {
        private static final long serialVersionUID = 1L;
        int x;
        int y;
        String label;

        Point(int x, int y, String label) {
            this.x = x;
            this.y = y;
            this.label = label;
        }

        @Override
        public String toString() {
            return "Point(" + x + ", " + y + ", " + label + ")";
        }
    }
}
