package io.ferry.rpc.remoting.internal.serialize.fast;

import java.io.Serializable;
import java.math.BigDecimal;
import java.math.BigInteger;
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
import java.util.Date;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

/**
 * Random object graphs of every kind of value hessian-lite writes for Ferry's workloads and interop probes, from a
 * seed, so that a failure is reproduced by its seed alone. Values already made are reused at random, so the graphs
 * have shared references.
 */
final class GraphGenerator {
    private final Random random;
    private final boolean floatFields;
    private final List<Object> made = new ArrayList<>();
    /** The date and time java.time values of this graph may be built on: instances shared inside values. */
    private LocalDate sharedDate;
    private LocalTime sharedTime;

    GraphGenerator(long seed) {
        this(seed, true);
    }

    /**
     * @param floatFields false to leave every object's {@code float} field at zero, for a graph hessian-lite 4.0.4
     *                    reads right (it sets a float field with {@code putDouble}: see {@link FastReadingTest})
     */
    GraphGenerator(long seed, boolean floatFields) {
        this.random = new Random(seed);
        this.floatFields = floatFields;
    }

    /** One root value, nested at most {@code depth} levels. */
    Object value(int depth) {
        if (!made.isEmpty() && random.nextInt(12) == 0) {
            return made.get(random.nextInt(made.size())); // the same object again: a back-reference
        }
        int kind = random.nextInt(depth <= 0 ? 18 : 28);
        Object value = switch (kind) {
            case 0 -> null;
            case 1 -> random.nextBoolean();
            case 2 -> anInt();
            case 3 -> aLong();
            case 4 -> aDouble();
            case 5 -> (float) aDouble();
            case 6 -> (short) anInt();
            case 7 -> (byte) anInt();
            case 8 -> (char) random.nextInt(0x10000);
            case 9, 10 -> string();
            case 11 -> new Date(aDate());
            case 12 -> javaTime();
            case 13 -> new BigDecimal(BigInteger.valueOf(aLong()), random.nextInt(10));
            case 14 -> BigInteger.valueOf(aLong()).shiftLeft(random.nextInt(80));
            case 15 -> Color.values()[random.nextInt(Color.values().length)];
            case 16 -> bytes();
            case 17 -> TimeUnit.values()[random.nextInt(TimeUnit.values().length)];
            case 18, 19, 20 -> person(depth - 1);
            case 21 -> list(depth - 1);
            case 22 -> map(depth - 1);
            case 23 -> array(depth - 1);
            case 24 -> primitiveArray();
            case 25 -> employee(depth - 1);
            case 26 -> set(depth - 1);
            default -> new IllegalStateException("failed: " + string(), random.nextBoolean() ? null
                    : new RuntimeException(string()));
        };
        if (value != null) {
            made.add(value);
        }
        return value;
    }

    int anInt() {
        return switch (random.nextInt(5)) {
            case 0 -> random.nextInt(64) - 16;
            case 1 -> random.nextInt(0x1000) - 0x800;
            case 2 -> random.nextInt(0x80000) - 0x40000;
            case 3 -> random.nextInt();
            default -> random.nextBoolean() ? Integer.MIN_VALUE : Integer.MAX_VALUE;
        };
    }

    long aLong() {
        return switch (random.nextInt(5)) {
            case 0 -> random.nextInt(24) - 8;
            case 1 -> anInt();
            case 2 -> random.nextLong();
            case 3 -> random.nextBoolean() ? Long.MIN_VALUE : Long.MAX_VALUE;
            default -> (long) random.nextInt() << random.nextInt(32);
        };
    }

    double aDouble() {
        return switch (random.nextInt(6)) {
            case 0 -> random.nextInt(3);
            case 1 -> random.nextInt(0x10000) - 0x8000;
            case 2 -> (random.nextInt(2_000_000) - 1_000_000) / 1000.0;
            case 3 -> random.nextDouble() * 1e12;
            case 4 -> random.nextBoolean() ? Double.NaN : Double.NEGATIVE_INFINITY;
            default -> random.nextGaussian();
        };
    }

    long aDate() {
        long millis = random.nextLong() % 4_000_000_000_000L;
        return random.nextBoolean() ? millis - millis % 60_000 : millis;
    }

    /** ASCII, Latin-1, other BMP, non-BMP (surrogate pairs), and now and then longer than a hessian chunk. */
    String string() {
        int length = switch (random.nextInt(20)) {
            case 0 -> 0x8000 + random.nextInt(40_000);
            case 1, 2 -> 0x20 + random.nextInt(0x400);
            default -> random.nextInt(0x30);
        };
        int alphabet = random.nextInt(4);
        StringBuilder s = new StringBuilder(length);
        while (s.length() < length) {
            int kind = alphabet == 0 ? 0 : random.nextInt(alphabet + 1);
            switch (kind) {
                case 0 -> s.append((char) (0x20 + random.nextInt(0x5f)));
                case 1 -> s.append((char) (0x80 + random.nextInt(0x780)));
                case 2 -> s.append((char) (0x800 + random.nextInt(0xd000)));
                default -> s.appendCodePoint(0x10000 + random.nextInt(0xfffff));
            }
        }
        return s.toString();
    }

    byte[] bytes() {
        byte[] bytes = new byte[random.nextInt(10) == 0 ? random.nextInt(20_000) : random.nextInt(40)];
        random.nextBytes(bytes);
        return bytes;
    }

    /**
     * Every java.time type hessian-lite writes through a handle, now and then at an edge (negative epoch with nanos,
     * LocalTime.MAX, a negative Duration...), zoned by region or by offset, and some built on this graph's one date
     * and time, so that nested values share instances (equal but distinct ones come from the same constants).
     */
    Object javaTime() {
        long seconds = random.nextInt(2_000_000_000) - (random.nextInt(4) == 0 ? 3_000_000_000L : 0);
        int nanos = random.nextBoolean() ? 0 : random.nextInt(1_000_000_000);
        ZoneOffset offset = ZoneOffset.ofTotalSeconds((random.nextInt(145) - 72) * 900); // -18:00 to +18:00
        return switch (random.nextInt(20)) {
            case 0 -> LocalDate.ofEpochDay(random.nextInt(100_000) - 30_000);
            case 1 -> LocalDateTime.ofEpochSecond(seconds, nanos, offset);
            case 2 -> random.nextBoolean() ? LocalTime.ofSecondOfDay(random.nextInt(86_400)).withNano(nanos)
                    : LocalTime.MAX;
            case 3 -> Instant.ofEpochSecond(seconds, nanos);
            case 4 -> random.nextBoolean() ? Duration.ofMillis(aLong() % 1_000_000_000_000L)
                    : Duration.ofSeconds(aLong() % 1_000_000_000_000L, -nanos);
            case 5 -> ZonedDateTime.ofInstant(Instant.ofEpochSecond(seconds, nanos), ZoneId.of(random.nextBoolean()
                    ? "Europe/Paris" : "America/St_Johns"));
            case 6 -> ZonedDateTime.ofInstant(Instant.ofEpochSecond(seconds), offset);
            case 7 -> OffsetDateTime.ofInstant(Instant.ofEpochSecond(seconds, nanos), offset);
            case 8 -> OffsetTime.of(LocalTime.ofNanoOfDay(nanos), offset);
            case 9 -> offset;
            case 10 -> ZoneId.of(random.nextBoolean() ? "Asia/Kolkata" : "UTC");
            case 11 -> Period.of(anInt(), random.nextInt(25) - 12, random.nextInt(62) - 31);
            case 12 -> Year.of(random.nextInt(4000) - 1000);
            case 13 -> YearMonth.of(random.nextInt(4000), 1 + random.nextInt(12));
            case 14 -> MonthDay.of(1 + random.nextInt(12), 1 + random.nextInt(28));
            case 15 -> LocalDateTime.of(sharedDate(), sharedTime());
            case 16 -> OffsetDateTime.of(sharedDate(), sharedTime(), offset);
            case 17 -> LocalDate.of(2024, 2, 29); // a new instance each time, equal to the others
            case 18 -> Instant.ofEpochSecond(-1, 1);
            default -> Duration.ofNanos(-1);
        };
    }

    private LocalDate sharedDate() {
        if (sharedDate == null) {
            sharedDate = LocalDate.ofEpochDay(random.nextInt(40_000));
        }
        return sharedDate;
    }

    private LocalTime sharedTime() {
        if (sharedTime == null) {
            sharedTime = LocalTime.ofNanoOfDay(random.nextLong(86_400_000_000_000L));
        }
        return sharedTime;
    }

    Person person(int depth) {
        Person p = new Person();
        fill(p, depth);
        return p;
    }

    Employee employee(int depth) {
        Employee e = new Employee();
        fill(e, depth);
        e.salary = random.nextBoolean() ? null : new BigDecimal(random.nextInt(1_000_000)).movePointLeft(2);
        e.manager = random.nextInt(3) == 0 ? person(depth - 1) : null;
        e.level = random.nextInt(10);
        e.name = random.nextBoolean() ? null : string();
        e.hired = random.nextBoolean() ? null : new java.sql.Timestamp(aDate());
        return e;
    }

    private void fill(Person p, int depth) {
        p.id = aLong();
        p.name = random.nextInt(5) == 0 ? null : string();
        p.sex = anInt();
        p.flag = random.nextBoolean();
        p.initial = (char) random.nextInt(0x10000);
        p.small = (byte) anInt();
        p.shortish = (short) anInt();
        float ratio = (float) aDouble();
        p.ratio = floatFields ? ratio : 0;
        p.score = aDouble();
        p.boxedInt = random.nextBoolean() ? null : anInt();
        p.boxedLong = random.nextBoolean() ? null : aLong();
        p.birthday = random.nextInt(4) == 0 ? null : new Date(aDate());
        p.permissions = random.nextInt(4) == 0 ? null : integers();
        p.color = random.nextBoolean() ? null : Color.values()[random.nextInt(Color.values().length)];
        p.extra = depth > 0 && random.nextBoolean() ? value(depth - 1) : null;
        p.cache = "transient, never written";
    }

    private List<Integer> integers() {
        List<Integer> list = new ArrayList<>();
        for (int i = random.nextInt(20); i > 0; i--) {
            list.add(anInt());
        }
        return list;
    }

    List<Object> list(int depth) {
        List<Object> list = switch (random.nextInt(3)) {
            case 0 -> new ArrayList<>();
            case 1 -> new LinkedList<>();
            default -> new java.util.Vector<>();
        };
        for (int i = random.nextInt(random.nextInt(8) == 0 ? 30 : 10); i > 0; i--) {
            list.add(value(depth));
        }
        return list;
    }

    Map<Object, Object> map(int depth) {
        Map<Object, Object> map = switch (random.nextInt(3)) {
            case 0 -> new HashMap<>();
            case 1 -> new LinkedHashMap<>();
            default -> new TreeMap<>();
        };
        for (int i = random.nextInt(10); i > 0; i--) {
            Object key = map instanceof TreeMap ? string() : key();
            map.put(key, value(depth));
        }
        return map;
    }

    /** Keys that hash by value, so that two readings of one map iterate alike. */
    private Object key() {
        return switch (random.nextInt(5)) {
            case 0 -> anInt();
            case 1 -> aLong();
            case 2 -> Color.values()[random.nextInt(Color.values().length)];
            case 3 -> new Date(aDate());
            default -> string();
        };
    }

    HashSet<Object> set(int depth) {
        HashSet<Object> set = new HashSet<>();
        for (int i = random.nextInt(6); i > 0; i--) {
            set.add(random.nextBoolean() ? string() : key());
        }
        return set;
    }

    Object array(int depth) {
        Object[] array = random.nextBoolean() ? new Object[random.nextInt(12)] : new Person[random.nextInt(12)];
        for (int i = 0; i < array.length; i++) {
            array[i] = array instanceof Person[] ? person(depth) : value(depth);
        }
        return array;
    }

    Object primitiveArray() {
        int n = random.nextInt(12);
        return switch (random.nextInt(5)) {
            case 0 -> random.ints(n).toArray();
            case 1 -> random.longs(n).toArray();
            case 2 -> random.doubles(n).toArray();
            case 3 -> new String[] {string(), null, string()};
            default -> new boolean[] {true, false, random.nextBoolean()};
        };
    }

    enum Color { RED, GREEN, BLUE }

    /** Fields of every simple kind, boxes, a date, a list, an enum and anything. */
    static class Person implements Serializable {
        private static final long serialVersionUID = 1L;
        static String ignoredStatic = "static";
        long id;
        String name;
        int sex;
        boolean flag;
        char initial;
        byte small;
        short shortish;
        float ratio;
        double score;
        Integer boxedInt;
        Long boxedLong;
        Date birthday;
        List<Integer> permissions;
        Color color;
        Object extra;
        transient String cache;
    }

    /** Inheritance, a field hiding the superclass's, a nested POJO, a BigDecimal and a java.sql date. */
    static final class Employee extends Person {
        private static final long serialVersionUID = 1L;
        BigDecimal salary;
        Person manager;
        int level;
        String name;
        java.sql.Timestamp hired;
    }
}
