package io.ferry.rpc.remoting.internal.serialize.fast;

import io.ferry.rpc.ClassAllowList;
import io.ferry.rpc.remoting.internal.serialize.AllowedClasses;
import io.ferry.rpc.remoting.internal.serialize.GuardedHessian2Input;
import io.ferry.rpc.remoting.internal.serialize.SafeSerializerFactory;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.Test;

import java.io.EOFException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Ferry's reading (the {@link HessianCodec#FERRY} codec of {@link GuardedHessian2Input} and its factory's
 * {@link PojoReader}s) gives the values hessian-lite's reading gives, for random graphs written by either writer
 * (their bytes are the same). Two graphs are compared by writing them again with hessian-lite: equal bytes, equal
 * graphs (shared references included). A failure names its seed.
 *
 * <p>Except in one place, where Ferry is right and hessian-lite 4.0.4 is not: it sets a {@code float} field with
 * {@code putDouble}, eight bytes over a four-byte field, so the field gets the low half of a double and the field
 * laid out after it the high half (put right only if read later). The random graphs leave float fields at zero,
 * and {@link #aFloatFieldGetsTheFloatWrittenAndItsNeighboursKeepTheirs} pins Ferry's reading of them.
 */
class FastReadingTest {
    private static final int SEEDS = 300;

    private static final AllowedClasses ALLOWED = AllowedClasses.forServices(Set.of(),
            ClassAllowList.builder().allowPackage(GraphGenerator.class.getPackageName()).build());

    private final SafeSerializerFactory factory = new SafeSerializerFactory(ALLOWED, HessianCodec.FERRY);
    /** hessian-lite's readers for objects too, not only its strings. */
    private final SafeSerializerFactory liteFactory = new SafeSerializerFactory(ALLOWED, HessianCodec.HESSIAN_LITE);

    @Test
    void eachReadsTheOthersBytesOfRandomGraphsToTheSameValues() throws IOException {
        long first = System.nanoTime();
        for (long seed = first; seed < first + SEEDS; seed++) {
            GraphGenerator generator = new GraphGenerator(seed, false);
            List<Object> values = Arrays.asList(generator.string(), generator.value(4), generator.map(2));
            byte[] lite = ByteIdentityTest.hessianLite(factory, values);
            byte[] ferry = ByteIdentityTest.fast(factory, values);
            assertArrayEquals(lite, ferry, "seed " + seed);
            List<Object> expected = read(ferry, HessianCodec.HESSIAN_LITE, values.size());
            List<Object> actual = read(lite, HessianCodec.FERRY, values.size());
            byte[] again = ByteIdentityTest.hessianLite(factory, expected);
            if (!Arrays.equals(again, ByteIdentityTest.hessianLite(factory, actual))) {
                fail("seed " + seed + ": Ferry read other values than hessian-lite");
            }
        }
    }

    @Test
    void aThreadsReusedInputReadsRandomGraphsBodyAfterBodyToTheSameValues() throws IOException {
        long first = System.nanoTime();
        for (long seed = first; seed < first + SEEDS; seed++) {
            GraphGenerator generator = new GraphGenerator(seed, false);
            List<Object> values = Arrays.asList(generator.value(4), generator.map(2));
            byte[] bytes = ByteIdentityTest.hessianLite(factory, values);
            byte[] expected = ByteIdentityTest.hessianLite(factory, read(bytes, HessianCodec.HESSIAN_LITE, 2));
            for (int time = 0; time < 2; time++) { // the second time, its class definitions are remembered
                GuardedHessian2Input in = GuardedHessian2Input.open(Unpooled.wrappedBuffer(bytes), factory);
                List<Object> read;
                try {
                    read = Arrays.asList(in.readObject(), in.readObject());
                } finally {
                    in.release();
                }
                if (!Arrays.equals(expected, ByteIdentityTest.hessianLite(factory, read))) {
                    fail("seed " + seed + ", body " + time + ": the reused input read other values");
                }
            }
        }
    }

    @Test
    void aFloatFieldGetsTheFloatWrittenAndItsNeighboursKeepTheirs() throws IOException {
        GraphGenerator.Person person = new GraphGenerator.Person();
        person.id = -1;
        person.sex = -2;
        person.initial = 'x';
        person.shortish = -3;
        person.small = -4;
        person.flag = true;
        person.ratio = -193.122f;
        person.score = -5.5;
        byte[] bytes = ByteIdentityTest.hessianLite(factory, List.of(person));
        GraphGenerator.Person read = (GraphGenerator.Person) read(bytes, HessianCodec.FERRY, 1).get(0);
        assertEquals(-193.122f, read.ratio);
        assertEquals(-1, read.id);
        assertEquals(-2, read.sex);
        assertEquals('x', read.initial);
        assertEquals(-3, read.shortish);
        assertEquals(-4, read.small);
        assertTrue(read.flag);
        assertEquals(-5.5, read.score);
    }

    @Test
    void stringsOfEveryLengthAndAlphabet() throws IOException {
        List<Object> values = new ArrayList<>();
        for (int length : new int[] {0, 1, 0x1f, 0x20, 0x3ff, 0x400, 0x7fff, 0x8000, 0x8001, 70_000}) {
            values.add("a".repeat(length));
            values.add("aé€".repeat(length / 3 + 1));
            values.add("b".repeat(0x7fff) + new String(Character.toChars(0x1f600)) + "c".repeat(length));
            values.add("x".repeat(length) + "\uDBFF"); // a lone high surrogate, as hessian writes it
        }
        byte[] bytes = ByteIdentityTest.hessianLite(factory, values);
        List<Object> read = read(bytes, HessianCodec.FERRY, values.size());
        GuardedHessian2Input in = new GuardedHessian2Input(Unpooled.wrappedBuffer(bytes), factory, HessianCodec.FERRY);
        for (int i = 0; i < values.size(); i++) {
            // not assertEquals: a failure would print strings of 70,000 chars
            assertTrue(values.get(i).equals(read.get(i)), "readObject, string " + i);
            assertTrue(values.get(i).equals(in.readString()), "readString, string " + i);
        }
    }

    @Test
    void readStringStillConvertsWhatHessianLiteConverts() throws IOException {
        byte[] bytes = ByteIdentityTest.hessianLite(factory, Arrays.asList(null, 7, true, 2.5, 1L << 40));
        GuardedHessian2Input in = new GuardedHessian2Input(Unpooled.wrappedBuffer(bytes), factory, HessianCodec.FERRY);
        assertEquals(null, in.readString());
        assertEquals("7", in.readString());
        assertEquals("true", in.readString());
        assertEquals("2.5", in.readString());
        assertEquals(String.valueOf(1L << 40), in.readString());
    }

    @Test
    void aStringCutShortOrClaimingMoreThanTheBodyIsRefused() {
        byte[] cut = {0x05, 'a', 'b'};
        assertThrows(EOFException.class, () -> reader(cut).readString());
        byte[] cutInAChar = {0x01, (byte) 0xe2, (byte) 0x82};
        assertThrows(EOFException.class, () -> reader(cutInAChar).readObject());
        byte[] claims = {'S', (byte) 0xff, (byte) 0xff, 'a'};
        assertThrows(IOException.class, () -> reader(claims).readString());
        byte[] badChunk = {'R', 0, 1, 'a', 'N'};
        assertThrows(IOException.class, () -> reader(badChunk).readString());
        byte[] fourByteLead = {0x01, (byte) 0xf0, (byte) 0x9f, (byte) 0x98, (byte) 0x80};
        assertThrows(IOException.class, () -> reader(fourByteLead).readString());
    }

    private GuardedHessian2Input reader(byte[] bytes) {
        return new GuardedHessian2Input(Unpooled.wrappedBuffer(bytes), factory, HessianCodec.FERRY);
    }

    private List<Object> read(byte[] bytes, HessianCodec codec, int count) throws IOException {
        GuardedHessian2Input in = new GuardedHessian2Input(Unpooled.wrappedBuffer(bytes),
                codec == HessianCodec.FERRY ? factory : liteFactory, codec);
        List<Object> values = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            values.add(in.readObject());
        }
        return values;
    }
}
