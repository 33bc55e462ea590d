package io.ferry.rpc.remoting.internal.serialize.fast;

import com.alibaba.com.caucho.hessian.io.Hessian2Output;
import io.ferry.rpc.ClassAllowList;
import io.ferry.rpc.remoting.internal.serialize.AllowedClasses;
import io.ferry.rpc.remoting.internal.serialize.GuardedHessian2Input;
import io.ferry.rpc.remoting.internal.serialize.SafeSerializerFactory;
import io.ferry.rpc.remoting.internal.serialize.fast.GraphGenerator.Employee;
import io.ferry.rpc.remoting.internal.serialize.fast.GraphGenerator.Person;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.Serializable;
import java.util.Arrays;
import java.util.Date;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Ferry's per-class reader ({@link PojoReader}) where random graphs rarely go: class definitions that differ from
 * the class, objects read by field names, a field given a value of another type, classes that resolve what they
 * read. Each case is read by hessian-lite's readers too, and the two compared by writing both results again.
 */
class PojoReaderTest {
    private static final AllowedClasses ALLOWED = AllowedClasses.forServices(Set.of(),
            ClassAllowList.builder().allowPackage(PojoReaderTest.class.getPackageName()).build());

    private final SafeSerializerFactory ferry = new SafeSerializerFactory(ALLOWED, HessianCodec.FERRY);
    private final SafeSerializerFactory lite = new SafeSerializerFactory(ALLOWED, HessianCodec.HESSIAN_LITE);

    @Test
    void fieldsTheClassLacksAreReadAndDroppedAndFieldsNotSentKeepTheirDefaults() throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        Hessian2Output out = output(bytes);
        out.writeObjectBegin(Person.class.getName());
        out.writeClassFieldLength(3);
        out.writeString("id");
        out.writeString("retiredField");
        out.writeString("name");
        out.writeObjectBegin(Person.class.getName());
        out.writeLong(7);
        out.writeObject(List.of(new Date(0), "anything"));
        out.writeString("Ann");
        out.flush();

        Person read = (Person) read(bytes.toByteArray(), ferry);
        assertEquals(7, read.id);
        assertEquals("Ann", read.name);
        assertEquals(0, read.sex);
        assertNull(read.permissions);
        assertSameAsHessianLite(bytes.toByteArray());
    }

    @Test
    void anEmployeeWhereAPersonIsDeclaredIsReadByItsFieldNames() throws IOException {
        Employee boss = new Employee();
        boss.id = 1;
        boss.name = "boss";
        boss.level = 9;
        boss.birthday = new Date(1_700_000_000_000L);
        Employee employee = new Employee();
        employee.id = 2;
        employee.manager = boss; // Employee.manager is a Person: hessian-lite reads it by its field names
        employee.permissions = Arrays.asList(1, null, 3);
        byte[] bytes = ByteIdentityTest.hessianLite(lite, List.of(employee));

        Employee read = (Employee) read(bytes, ferry);
        Employee manager = assertInstanceOf(Employee.class, read.manager);
        assertEquals(9, manager.level);
        assertEquals("boss", manager.name);
        assertEquals(boss.birthday, manager.birthday);
        assertEquals(Arrays.asList(1, null, 3), read.permissions);
        assertSameAsHessianLite(bytes);
    }

    @Test
    void aBackReferenceToAValueOfAnotherTypeIsRefusedNamingTheField() throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        Hessian2Output out = output(bytes);
        out.writeListBegin(2, null); // reference 0
        out.writeObject(new HashMap<>(Map.of("k", "v"))); // reference 1
        out.writeObjectBegin(Employee.class.getName());
        out.writeClassFieldLength(1);
        out.writeString("manager");
        out.writeObjectBegin(Employee.class.getName());
        out.flush();
        bytes.write(new byte[] {'Q', (byte) 0x91}); // manager: reference 1, the map

        IOException refused = assertThrows(IOException.class, () -> read(bytes.toByteArray(), ferry));
        assertTrue(messages(refused).contains(Employee.class.getName() + ".manager: java.util.HashMap cannot be"
                + " assigned to '" + Person.class.getName() + "'"), messages(refused));
        // hessian-lite's own reader takes it, leaving a HashMap in a Person field
        read(bytes.toByteArray(), lite);
    }

    @Test
    void aClassThatResolvesWhatItReadsIsLeftToHessianLite() throws IOException {
        byte[] bytes = ByteIdentityTest.hessianLite(lite, List.of(new Canonical(5)));
        assertSame(Canonical.ONLY, read(bytes, ferry));
    }

    @Test
    void datesInEveryFormAndNull() throws IOException {
        Person p = new Person();
        for (Date date : new Date[] {null, new Date(0), new Date(60_000L * 28_000_000), new Date(-1), new Date(1)}) {
            p.birthday = date;
            byte[] bytes = ByteIdentityTest.hessianLite(lite, List.of(p));
            assertEquals(date, ((Person) read(bytes, ferry)).birthday);
            assertSameAsHessianLite(bytes);
        }
    }

    @Test
    @SuppressWarnings({"unchecked", "rawtypes"})
    void genericFieldsGetTheElementTypesHessianLiteHandsDown() throws IOException {
        Typed typed = new Typed();
        typed.longs = (List) List.of(1, 2); // written as ints: the field's element type makes them Longs
        typed.shorts = (Set) Set.of(3);
        typed.sizes = (Map) Map.of(4, 5);
        byte[] bytes = ByteIdentityTest.hessianLite(lite, List.of(typed));

        Typed read = (Typed) read(bytes, ferry);
        assertEquals(List.of(1L, 2L), read.longs);
        assertEquals(Set.of((short) 3), read.shorts);
        assertEquals(Map.of((byte) 4, 5L), read.sizes);
        assertSameAsHessianLite(bytes);
    }

    /** Reads with each factory and compares what hessian-lite writes of the two results. */
    private void assertSameAsHessianLite(byte[] bytes) throws IOException {
        Object expected = read(bytes, lite);
        Object actual = read(bytes, ferry);
        assertArrayEquals(ByteIdentityTest.hessianLite(lite, Arrays.asList(expected)),
                ByteIdentityTest.hessianLite(lite, Arrays.asList(actual)));
    }

    private static Object read(byte[] bytes, SafeSerializerFactory factory) throws IOException {
        return new GuardedHessian2Input(Unpooled.wrappedBuffer(bytes), factory, HessianCodec.FERRY).readObject();
    }

    private Hessian2Output output(ByteArrayOutputStream bytes) {
        Hessian2Output out = new Hessian2Output(bytes);
        out.setSerializerFactory(lite);
        return out;
    }

    private static String messages(Throwable t) {
        StringBuilder all = new StringBuilder();
        for (Throwable c = t; c != null; c = c.getCause()) {
            all.append(c.getMessage()).append(" / ");
        }
        return all.toString();
    }

    static final class Typed implements Serializable {
        private static final long serialVersionUID = 1L;
        List<Long> longs;
        Set<Short> shorts;
        Map<Byte, Long> sizes;
    }

    static final class Canonical implements Serializable {
        private static final long serialVersionUID = 1L;
        static final Canonical ONLY = new Canonical(0);
        final int value;

        Canonical(int value) {
            this.value = value;
        }

        private Object readResolve() {
            return ONLY;
        }
    }
}
