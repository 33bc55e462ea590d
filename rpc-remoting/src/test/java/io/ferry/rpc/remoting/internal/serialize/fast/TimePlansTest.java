package io.ferry.rpc.remoting.internal.serialize.fast;

import com.alibaba.com.caucho.hessian.io.AbstractHessianOutput;
import com.alibaba.com.caucho.hessian.io.AbstractSerializer;
import com.alibaba.com.caucho.hessian.io.AbstractSerializerFactory;
import com.alibaba.com.caucho.hessian.io.Deserializer;
import com.alibaba.com.caucho.hessian.io.Hessian2Output;
import com.alibaba.com.caucho.hessian.io.Serializer;
import com.alibaba.com.caucho.hessian.io.SerializerFactory;
import com.alibaba.com.caucho.hessian.io.java8.LocalDateHandle;
import com.alibaba.com.caucho.hessian.io.java8.SerializationConfig;
import io.ferry.rpc.remoting.internal.serialize.AllowedClasses;
import io.ferry.rpc.remoting.internal.serialize.SafeSerializerFactory;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.MonthDay;
import java.time.OffsetDateTime;
import java.time.OffsetTime;
import java.time.Period;
import java.time.Year;
import java.time.YearMonth;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The {@code java.time} plans ({@link TimePlans}) write the bytes hessian-lite's serializers write through their
 * handles, with the same reference numbers, and step aside wherever hessian-lite would write something else.
 */
class TimePlansTest {
    private final SerializerFactory plain = new SerializerFactory();
    private final SerializerFactory ferry = SafeSerializerFactory.unknownAsMaps(AllowedClasses.jdkOnly());

    private static final ZonedDateTime PARIS =
            ZonedDateTime.of(2024, 3, 31, 2, 30, 0, 5, ZoneId.of("Europe/Paris")); // in the spring-forward gap

    /** Values at the edges of each type, in the order of the types' handles' layouts. */
    private static final List<Object> EDGES = List.of(
            LocalDate.MIN, LocalDate.MAX, LocalDate.EPOCH, LocalDate.of(1969, 12, 31), LocalDate.of(2024, 2, 29),
            LocalTime.MIN, LocalTime.MAX, LocalTime.NOON, LocalTime.of(0, 0, 0, 1),
            LocalDateTime.MIN, LocalDateTime.MAX, LocalDateTime.of(1970, 1, 1, 0, 0, 0, 999_999_999),
            Instant.EPOCH, Instant.MIN, Instant.MAX, Instant.ofEpochSecond(-1, 1),
            Instant.ofEpochSecond(-62_135_596_800L, 999_999_999), Instant.ofEpochMilli(1_700_000_000_123L),
            Duration.ZERO, Duration.ofNanos(-1), Duration.ofMillis(-1500), Duration.ofSeconds(Long.MIN_VALUE),
            Duration.ofSeconds(Long.MAX_VALUE, 999_999_999), Duration.ofDays(365 * 300),
            PARIS, PARIS.withZoneSameInstant(ZoneOffset.ofHoursMinutes(5, 30)), PARIS.withZoneSameInstant(
                    ZoneOffset.UTC), PARIS.withZoneSameInstant(ZoneId.of("UTC")), PARIS.withZoneSameInstant(
                    ZoneId.of("GMT+02:00")), ZonedDateTime.of(LocalDateTime.MIN, ZoneOffset.MAX),
            OffsetDateTime.MIN, OffsetDateTime.MAX, PARIS.toOffsetDateTime(),
            OffsetTime.MIN, OffsetTime.MAX, OffsetTime.of(LocalTime.of(23, 59, 59, 1), ZoneOffset.ofHours(-7)),
            ZoneOffset.UTC, ZoneOffset.MIN, ZoneOffset.MAX, ZoneOffset.ofHoursMinutesSeconds(5, 30, 15),
            ZoneId.of("Europe/Paris"), ZoneId.of("UTC"), ZoneId.of("GMT+02:00"), ZoneId.of("America/St_Johns"),
            Period.ZERO, Period.of(-1, 13, 400), Period.of(Integer.MIN_VALUE, Integer.MAX_VALUE, 0),
            Year.of(Year.MIN_VALUE), Year.of(Year.MAX_VALUE), Year.of(2024),
            YearMonth.of(Year.MIN_VALUE, 1), YearMonth.of(2024, 12),
            MonthDay.of(2, 29), MonthDay.of(12, 31));

    /** Every type hessian-lite 4.0.4 writes through a java8 handle gets a plan, with either factory. */
    @Test
    void everyJavaTimeTypeIsWrittenByItsPlan() {
        for (SerializerFactory factory : List.of(plain, ferry)) {
            for (Object value : EDGES) {
                assertInstanceOf(TimePlan.class, WritePlans.of(factory).planFor(value.getClass()),
                        value.getClass().getName());
            }
        }
    }

    /** Each edge value alone, all of them in one body (class definitions then by index), and inside a list. */
    @Test
    void edgeValuesAreWrittenAsHessianLiteWritesThem() throws IOException {
        for (SerializerFactory factory : List.of(plain, ferry)) {
            for (Object value : EDGES) {
                assertSameBytes(factory, List.of(value), value + " (" + value.getClass().getSimpleName() + ")");
            }
            assertSameBytes(factory, EDGES, "all");
            assertSameBytes(factory, List.of(new ArrayList<>(EDGES), EDGES.get(3), new ArrayList<>(EDGES)), "lists");
        }
    }

    /**
     * hessian-lite adds the handle it makes, never the value: the same LocalDate twice is written twice, and each
     * write takes a reference number, so the empty list after two dates is reference 2 (written back as 51 92).
     */
    @Test
    void theSameValueTwiceIsWrittenTwiceAndEachWriteTakesAReference() throws IOException {
        LocalDate date = LocalDate.of(2024, 2, 29);
        List<Object> list = new ArrayList<>();
        byte[] bytes = assertSameBytes(plain, List.of(date, date, list, list), "same date twice");
        assertEquals("5192", HexFormat.of().formatHex(bytes, bytes.length - 2, bytes.length));
        // and two equal but distinct dates: the very same bytes
        assertArrayEquals(bytes, assertSameBytes(plain, List.of(date, LocalDate.of(2024, 2, 29), list, list), "equal"));
    }

    /** A ZonedDateTime takes five references: its handle, its offset's, its LocalDateTime's and that one's two. */
    @Test
    void nestedValuesTakeTheirHandlesReferencesInOrder() throws IOException {
        List<Object> list = new ArrayList<>();
        byte[] bytes = assertSameBytes(plain, List.of(PARIS, list, list, PARIS), "zoned");
        int backRef = ByteIdentityTest.fast(plain, List.of(PARIS, list)).length; // after the date and the list
        assertEquals("5195", HexFormat.of().formatHex(bytes, backRef, backRef + 2));
    }

    /**
     * hessian-lite's compact mode (a system property read once, its flag checked at every write) writes three types
     * another way: hessian-lite's serializers write them then.
     */
    @Test
    void compactModeLeavesTheValuesToHessianLite() throws Exception {
        List<Object> values = List.of(LocalDate.of(2024, 2, 29), LocalDateTime.MAX, LocalTime.MAX, Instant.EPOCH,
                PARIS, LocalDate.EPOCH);
        Method setCompactMode = SerializationConfig.class.getDeclaredMethod("setCompactMode", boolean.class);
        setCompactMode.setAccessible(true);
        boolean was = SerializationConfig.isCompactMode();
        try {
            setCompactMode.invoke(null, false);
            byte[] normal = ByteIdentityTest.hessianLite(plain, values);
            setCompactMode.invoke(null, true);
            byte[] compact = assertSameBytes(plain, values, "compact mode");
            assertFalse(Arrays.equals(normal, compact), "compact mode was not on");
        } finally {
            setCompactMode.invoke(null, was);
        }
    }

    /** A serializer registered for a type, or for its handle, is hessian-lite's choice: the plan steps aside. */
    @Test
    void aSerializerRegisteredForTheValueOrItsHandleKeepsTheValue() throws IOException {
        Serializer tagged = new AbstractSerializer() {
            @Override
            public void writeObject(Object obj, AbstractHessianOutput out) throws IOException {
                out.writeString("registered " + obj.getClass().getSimpleName());
            }
        };
        for (Class<?> registered : List.of(LocalDate.class, LocalDateHandle.class)) {
            SerializerFactory factory = new SerializerFactory();
            factory.addFactory(new AbstractSerializerFactory() {
                @Override
                public Serializer getSerializer(Class cl) {
                    return cl == registered ? tagged : null;
                }

                @Override
                public Deserializer getDeserializer(Class cl) {
                    return null;
                }
            });
            assertFalse(WritePlans.of(factory).planFor(LocalDate.class) instanceof TimePlan, registered.getName());
            byte[] bytes = assertSameBytes(factory, List.of(LocalDate.EPOCH, LocalDateTime.MIN), registered.getName());
            String written = new String(bytes, StandardCharsets.ISO_8859_1);
            assertTrue(written.contains("registered " + registered.getSimpleName()), written);
        }
    }

    /**
     * The point of the plans: no handle per value. Over many writes of every type, hessian-lite's output allocates
     * handles (tens of bytes a value) where the fast one allocates nothing per value (its buffer and tables are
     * made once), measured by the thread's allocation counter.
     */
    @Test
    void writingAllocatesNoHandles() throws IOException {
        assumeTrue(ManagementFactory.getThreadMXBean() instanceof com.sun.management.ThreadMXBean bean
                && bean.isThreadAllocatedMemorySupported() && bean.isThreadAllocatedMemoryEnabled());
        int rounds = 200;
        long fast = allocatedWriting(new FastHessian2Output(), rounds);
        long lite = allocatedWriting(new Hessian2Output(), rounds);
        long values = (long) rounds * EDGES.size();
        assertTrue(lite > values * 16, "the counter did not see hessian-lite's handles: " + lite);
        assertTrue(fast < values, "allocated " + fast + " bytes for " + values + " values");
    }

    private long allocatedWriting(Hessian2Output out, int rounds) throws IOException {
        com.sun.management.ThreadMXBean bean = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        out.init(OutputStream.nullOutputStream());
        out.setSerializerFactory(plain);
        for (int i = 0; i < rounds; i++) { // warm: plans made, classes loaded, lambdas linked
            writeAll(out);
        }
        long before = bean.getThreadAllocatedBytes(Thread.currentThread().getId());
        for (int i = 0; i < rounds; i++) {
            writeAll(out);
        }
        return bean.getThreadAllocatedBytes(Thread.currentThread().getId()) - before;
    }

    private static void writeAll(Hessian2Output out) throws IOException {
        for (int i = 0; i < EDGES.size(); i++) {
            out.writeObject(EDGES.get(i));
        }
    }

    private static byte[] assertSameBytes(SerializerFactory factory, List<Object> values, String what)
            throws IOException {
        byte[] expected = ByteIdentityTest.hessianLite(factory, values);
        byte[] actual = ByteIdentityTest.fast(factory, values);
        assertArrayEquals(expected, actual, () -> what + ": differ at " + Arrays.mismatch(expected, actual)
                + "\n  hessian-lite " + HexFormat.of().formatHex(expected)
                + "\n  ferry        " + HexFormat.of().formatHex(actual));
        return actual;
    }
}
