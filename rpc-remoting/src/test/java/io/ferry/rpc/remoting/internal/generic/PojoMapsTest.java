package io.ferry.rpc.remoting.internal.generic;

import io.ferry.rpc.ClassAllowList;
import io.ferry.rpc.remoting.HostileValues;
import io.ferry.rpc.remoting.internal.serialize.AllowedClasses;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.lang.reflect.Method;
import java.lang.reflect.Type;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Date;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Dubbo's generic form both ways: what a provider makes of a generic caller's maps, and what it sends back. */
class PojoMapsTest {
    public enum Status { NEW, PAID }

    public record Point(int x, int y) {
    }

    public static class Item {
        private String sku;
        private int count;

        public Item() {
        }

        Item(String sku, int count) {
            this.sku = sku;
            this.count = count;
        }

        public String getSku() {
            return sku;
        }

        public void setSku(String sku) {
            this.sku = sku;
        }

        public int getCount() {
            return count;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Item i && i.getClass() == getClass() && Objects.equals(sku, i.sku) && count == i.count;
        }

        @Override
        public int hashCode() {
            return Objects.hash(sku, count);
        }
    }

    /** A subtype no signature names: allowed only through the allow-list. */
    public static class GiftItem extends Item {
        private String note;

        public String getNote() {
            return note;
        }
    }

    public static class Order {
        private long id;
        private Status status;
        private Date created;
        private LocalDate due;
        private List<Item> items = new ArrayList<>();
        private Map<String, Item> bySku = new LinkedHashMap<>();
        private Item[] extras;
        private Point where;
        private Order parent;

        public long getId() {
            return id;
        }

        public Status getStatus() {
            return status;
        }

        public Date getCreated() {
            return created;
        }

        public LocalDate getDue() {
            return due;
        }

        public List<Item> getItems() {
            return items;
        }

        public Map<String, Item> getBySku() {
            return bySku;
        }

        public Item[] getExtras() {
            return extras;
        }

        public Point getWhere() {
            return where;
        }

        public Order getParent() {
            return parent;
        }
    }

    public interface Shop {
        String place(Order order);

        String count(long id, int times, Status status);

        String any(Object value);

        String items(List<Item> items);

        String tags(Set<String> tags);

        String anyOf(Set<Object> values);

        String keyed(Map<Object, String> byKey);

        String distinct(Set<Item> items);

        String at(LocalDateTime when, Date date);
    }

    /** Never reachable from Shop; initialising it would flip the flag. */
    public static class Tripwire {
        static final AtomicBoolean INITIALISED = TripwireFlag.FLAG;

        static {
            TripwireFlag.FLAG.set(true);
        }
    }

    static final class TripwireFlag {
        static final AtomicBoolean FLAG = new AtomicBoolean();
    }

    private final PojoMaps.Realizer realizer = PojoMaps.realizer(AllowedClasses.forServices(List.of(Shop.class),
            ClassAllowList.none(), "allow it in the test"), getClass().getClassLoader());

    private static Type parameter(String method, int index) {
        for (Method m : Shop.class.getMethods()) {
            if (m.getName().equals(method)) {
                return m.getGenericParameterTypes()[index];
            }
        }
        throw new AssertionError(method);
    }

    private static Order order() {
        Order order = new Order();
        order.id = 42;
        order.status = Status.PAID;
        order.created = new Date(1_700_000_000_000L);
        order.due = LocalDate.of(2026, 11, 27);
        order.items.add(new Item("a", 1));
        order.items.add(new Item("b", 2));
        order.bySku.put("a", new Item("a", 1));
        order.extras = new Item[] {new Item("x", 9), null};
        order.where = new Point(3, 4);
        return order;
    }

    @Test
    @SuppressWarnings("unchecked")
    void aPojoBecomesAMapWithItsClassAndNestedValuesAsDubboWritesThem() {
        Map<String, Object> map = (Map<String, Object>) PojoMaps.generalize(order());
        assertEquals(Order.class.getName(), map.get("class"));
        assertEquals(42L, map.get("id"));
        assertEquals("PAID", map.get("status"));
        assertEquals(new Date(1_700_000_000_000L), map.get("created"));
        assertEquals("2026-11-27", map.get("due"));
        List<Object> items = (List<Object>) map.get("items");
        assertEquals(Map.of("class", Item.class.getName(), "sku", "a", "count", 1), items.get(0));
        assertEquals(Map.of("class", Item.class.getName(), "sku", "a", "count", 1),
                ((Map<String, Object>) map.get("bySku")).get("a"));
        Object[] extras = (Object[]) map.get("extras");
        assertEquals(2, extras.length);
        assertNull(extras[1]);
        assertEquals(Map.of("class", Point.class.getName(), "x", 3, "y", 4), map.get("where"));
        assertTrue(map.containsKey("parent"));
        assertNull(map.get("parent"));
    }

    @Test
    void simpleValuesStayAsTheyAre() {
        assertEquals("s", PojoMaps.generalize("s"));
        assertEquals(7, PojoMaps.generalize(7));
        int[] ints = {1, 2};
        assertSame(ints, PojoMaps.generalize(ints));
        assertArrayEquals(new String[] {"NEW", "PAID"}, (String[]) PojoMaps.generalize(Status.values()));
        assertNull(PojoMaps.generalize(null));
        assertEquals(List.of("a", 1), PojoMaps.generalize(Arrays.asList("a", 1)));
        assertEquals(Set.of("a"), PojoMaps.generalize(Set.of("a")));
    }

    @Test
    void generalizedThenRealizedIsTheSameOrder() throws IOException {
        Order original = order();
        Order back = (Order) realizer.realize(PojoMaps.generalize(original), parameter("place", 0), "place arg 0");
        assertEquals(42, back.id);
        assertEquals(Status.PAID, back.status);
        assertEquals(original.created, back.created);
        assertEquals(original.due, back.due);
        assertEquals(original.items, back.items);
        assertInstanceOf(Item.class, back.items.get(0));
        assertEquals(original.bySku, back.bySku);
        assertArrayEquals(original.extras, back.extras);
        assertEquals(new Point(3, 4), back.where);
        assertNull(back.parent);
    }

    @Test
    void aMapWithoutClassTakesTheDeclaredTypeAndUnknownPropertiesAreSkipped() throws IOException {
        Map<String, Object> map = new HashMap<>();
        map.put("sku", "q");
        map.put("count", "12"); // text for a number, as hand-written maps carry it
        map.put("colour", "red");
        Object items = realizer.realize(List.of(map), parameter("items", 0), "items arg 0");
        assertEquals(List.of(new Item("q", 12)), items);
    }

    @Test
    void numbersTextEnumsAndDatesConvertToTheDeclaredTypes() throws IOException {
        assertEquals(5L, realizer.realize(5, parameter("count", 0), "a"));
        assertEquals(3, realizer.realize(3L, parameter("count", 1), "b"));
        assertEquals(Status.NEW, realizer.realize("NEW", parameter("count", 2), "c"));
        assertEquals(LocalDateTime.of(2026, 1, 2, 3, 4, 5),
                realizer.realize("2026-01-02T03:04:05", parameter("at", 0), "d"));
        Date date = new Date();
        assertSame(date, realizer.realize(date, parameter("at", 1), "e"));
        assertEquals(Set.of("x", "y"), realizer.realize(List.of("x", "y"), parameter("tags", 0), "f"));
    }

    @Test
    void badValuesAreRefusedSayingWhereAndWhy() {
        IOException e = assertThrows(IOException.class,
                () -> realizer.realize("LOST", parameter("count", 2), "Shop.count argument 2"));
        assertEquals("Shop.count argument 2: no constant 'LOST' in " + Status.class.getName(), e.getMessage());
        e = assertThrows(IOException.class,
                () -> realizer.realize(null, parameter("count", 1), "Shop.count argument 1"));
        assertEquals("Shop.count argument 1: null for a int", e.getMessage());
        e = assertThrows(IOException.class, () -> realizer.realize(Map.of("items", List.of(Map.of("count", "many"))),
                parameter("place", 0), "Shop.place argument 0"));
        assertEquals("Shop.place argument 0 .items[0].count: 'many' is not a java.lang.Integer", e.getMessage());
    }

    @Test
    void aListBecomingASetOrAMapKeyIsRefusedBeforeItIsHashed() throws IOException {
        // the report's 24,000 one-element lists sharing one hash code, sent as a list (the decoder hashes nothing)
        // for a parameter declared a set: each insert would compare the list with every colliding one before it
        List<Object> lists = HostileValues.collidingCountingLists(24_000);
        Map<Object, String> byList = new LinkedHashMap<>();
        byList.put(lists.get(0), "v");
        HostileValues.CountingList.CALLS.set(0);

        IOException e = assertThrows(IOException.class,
                () -> realizer.realize(lists, parameter("anyOf", 0), "Shop.anyOf argument 0"));
        assertTrue(e.getMessage().startsWith("Shop.anyOf argument 0 [0]: a " + HostileValues.CountingList.class
                .getName() + " as key 0 of a java.util.LinkedHashSet is refused before it is hashed"), e.getMessage());
        e = assertThrows(IOException.class, () -> realizer.realize(byList, parameter("keyed", 0), "Shop.keyed"));
        assertTrue(e.getMessage().contains("as key 0 of a java.util.LinkedHashMap is refused before it is hashed"),
                e.getMessage());
        assertEquals(0, HostileValues.CountingList.CALLS.get(), "no list was hashed or compared");

        assertEquals(Set.of("a", 1), realizer.realize(List.of("a", 1), parameter("anyOf", 0), "ok"));
        assertEquals(Map.of("k", "v"), realizer.realize(Map.of("k", "v"), parameter("keyed", 0), "ok"));
    }

    @Test
    void applicationObjectsMadeForASetAreCappedPerHashCodeAsTheDecoderCapsThem() throws IOException {
        List<Object> items = new ArrayList<>();
        for (String sku : HostileValues.collidingStrings(65)) {
            items.add(Map.of("sku", sku, "count", 1)); // one hash code for all: Item hashes its sku and count
        }
        assertEquals(64, ((Set<?>) realizer.realize(items.subList(0, 64), parameter("distinct", 0), "d")).size());
        IOException e = assertThrows(IOException.class,
                () -> realizer.realize(items, parameter("distinct", 0), "Shop.distinct argument 0"));
        assertTrue(e.getMessage().startsWith("Shop.distinct argument 0 [64]: a " + Item.class.getName()
                + " as key 64 of a java.util.LinkedHashSet is refused before it is hashed: 65 keys of this"
                + " LinkedHashSet share one hash code"), e.getMessage());
    }

    @Test
    void aClassTheAllowListRefusesIsNeverLoadedNorMade() {
        Map<String, Object> map = Map.of("class", Tripwire.class.getName(), "sku", "x");
        IOException e = assertThrows(IOException.class,
                () -> realizer.realize(map, parameter("any", 0), "Shop.any argument 0"));
        assertTrue(e.getMessage().startsWith("class not allowed for deserialization: " + Tripwire.class.getName()),
                e.getMessage());
        assertFalse(TripwireFlag.FLAG.get(), "the refused class was initialised");
        // nested, and as an element: refused the same way
        assertThrows(IOException.class, () -> realizer.realize(List.of(Map.of("class", "java.lang.ProcessBuilder")),
                parameter("items", 0), "Shop.items argument 0"));
        assertThrows(IOException.class, () -> realizer.realize(Map.of("parent", map), parameter("place", 0), "p"));
        assertFalse(TripwireFlag.FLAG.get());
    }

    @Test
    void aSubtypeComesInOnlyThroughTheAllowListAndMustBeASubtype() throws IOException {
        Map<String, Object> gift = Map.of("class", GiftItem.class.getName(), "sku", "g", "note", "hi");
        IOException e = assertThrows(IOException.class,
                () -> realizer.realize(List.of(gift), parameter("items", 0), "Shop.items argument 0"));
        assertTrue(e.getMessage().contains("class not allowed for deserialization: " + GiftItem.class.getName()),
                e.getMessage());

        PojoMaps.Realizer allowing = PojoMaps.realizer(AllowedClasses.forServices(List.of(Shop.class),
                ClassAllowList.ofClasses(GiftItem.class, Order.class), "r"), getClass().getClassLoader());
        List<?> items = (List<?>) allowing.realize(List.of(gift), parameter("items", 0), "Shop.items argument 0");
        GiftItem made = assertInstanceOf(GiftItem.class, items.get(0));
        assertEquals("hi", made.getNote());

        e = assertThrows(IOException.class, () -> allowing.realize(List.of(Map.of("class", Order.class.getName())),
                parameter("items", 0), "Shop.items argument 0"));
        assertEquals("Shop.items argument 0 [0]: " + Order.class.getName() + " is not a " + Item.class.getName(),
                e.getMessage());
    }

    @Test
    void anObjectParameterKeepsAMapWithoutClassAndMakesTheNamedClass() throws IOException {
        assertEquals(Map.of("k", "v"), realizer.realize(Map.of("k", "v"), parameter("any", 0), "a"));
        Object item = realizer.realize(Map.of("class", Item.class.getName(), "sku", "s"), parameter("any", 0), "a");
        assertEquals(new Item("s", 0), item);
    }

    @Test
    @SuppressWarnings("unchecked")
    void cyclesStayCyclesBothWays() throws IOException {
        Order order = new Order();
        order.parent = order;
        Map<String, Object> map = (Map<String, Object>) PojoMaps.generalize(order);
        assertSame(map, map.get("parent"));

        Map<String, Object> cyclic = new HashMap<>();
        cyclic.put("class", Order.class.getName());
        cyclic.put("parent", cyclic);
        Order back = (Order) realizer.realize(cyclic, parameter("place", 0), "p");
        assertSame(back, back.parent);
    }

    @Test
    void nestingIsBoundedAsTheDecoderBoundsIt() {
        Map<String, Object> deep = new HashMap<>();
        Map<String, Object> at = deep;
        for (int i = 0; i < 300; i++) {
            Map<String, Object> next = new HashMap<>();
            at.put("parent", next);
            at = next;
        }
        Map<String, Object> top = deep;
        IOException e = assertThrows(IOException.class, () -> realizer.realize(top, parameter("place", 0), "p"));
        assertTrue(e.getMessage().endsWith("value nested deeper than 256 levels"), e.getMessage());

        Order chain = new Order();
        Order o = chain;
        for (int i = 0; i < 300; i++) {
            o.parent = new Order();
            o = o.parent;
        }
        IllegalArgumentException g = assertThrows(IllegalArgumentException.class, () -> PojoMaps.generalize(chain));
        assertEquals("value nested deeper than 256 levels", g.getMessage());
    }

    @Test
    void anAbstractTypeNeedsAClassAndAJdkTypeIsNotMadeFromAMap() {
        IOException e = assertThrows(IOException.class,
                () -> realizer.realize(Map.of("x", 1), List.class, "a"));
        assertTrue(e.getMessage().contains("cannot be a java.util.List"), e.getMessage());
        e = assertThrows(IOException.class, () -> realizer.realize(Map.of("x", 1), String.class, "b"));
        assertEquals("b: a map cannot be a java.lang.String", e.getMessage());
    }

    @Test
    void parameterTypeNamesBecomeTheDescriptorWithoutLoadingAnything() {
        assertEquals("JI", GenericCalls.descriptor(new String[] {"long", "int"}));
        assertEquals("Ljava/lang/String;[I[[Lcom/acme/User;", GenericCalls.descriptor(
                new String[] {"java.lang.String", "int[]", "com.acme.User[][]"}));
        assertEquals("[Ljava/lang/String;[I", GenericCalls.descriptor(new String[] {"[Ljava.lang.String;", "[I"}));
        assertEquals("", GenericCalls.descriptor(new String[0]));
        assertThrows(IllegalArgumentException.class, () -> GenericCalls.descriptor(new String[] {" "}));
    }

    @Test
    void onlyDubbosDefaultFormIsRead() {
        assertTrue(GenericCalls.generalizesResult(null));
        assertTrue(GenericCalls.generalizesResult("true"));
        assertFalse(GenericCalls.generalizesResult("raw.return"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> GenericCalls.generalizesResult("nativejava"));
        assertTrue(e.getMessage().startsWith("generic=nativejava: not supported by Ferry"), e.getMessage());
    }
}
