package io.ferry.rpc.remoting.internal.serialize;

import com.alibaba.com.caucho.hessian.io.Hessian2Output;
import com.alibaba.com.caucho.hessian.io.SerializerFactory;
import io.ferry.rpc.ClassAllowList;
import io.ferry.rpc.remoting.HostileValues;
import io.ferry.rpc.remoting.HostileValues.CountingList;
import io.ferry.rpc.remoting.internal.codec.RequestCodec;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufOutputStream;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.Serializable;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Maps and sets read from the wire refuse, before hashing it, a key whose hash walks a structure; the decode budget
 * bounds what back-references can repeat. The work is measured in what the reader read and what the keys were asked
 * (hashCode, equals), never in time: a refusal after the first key of 24,000 is the proof that the rest cost nothing.
 */
class HashFloodTest {
    private static final int COLLIDING = 24_000;

    /** An application key type: allowed, hashed like any other. */
    public record Key(String name, int version) implements Serializable {
    }

    private static final SafeSerializerFactory FACTORY = new SafeSerializerFactory(AllowedClasses.forServices(
            List.of(), ClassAllowList.ofClasses(CountingList.class, Key.class, Greeting.class)));

    private final List<ByteBuf> bodies = new ArrayList<>();

    @AfterEach
    void release() {
        bodies.forEach(ByteBuf::release);
    }

    private interface Writing {
        void write(Hessian2Output out) throws IOException;
    }

    /** What a peer writes, with hessian's stock factory; read back through Ferry's reader. */
    private GuardedHessian2Input body(Writing writing) throws IOException {
        ByteBuf buf = Unpooled.buffer();
        bodies.add(buf);
        Hessian2Output out = new Hessian2Output(new ByteBufOutputStream(buf));
        out.setSerializerFactory(new SerializerFactory());
        writing.write(out);
        out.flush();
        return new GuardedHessian2Input(buf, FACTORY);
    }

    @Test
    void setOfCollidingListsIsRefusedAtItsFirstElement() throws Exception {
        GuardedHessian2Input in = body(out -> HostileValues.writeHashSet(out,
                HostileValues.collidingLists(COLLIDING)));
        IOException e = assertThrows(IOException.class, in::readObject);
        assertTrue(e.getMessage().contains("a java.util.ArrayList as key 0 of a java.util.HashSet is refused before"
                + " it is hashed"), e.getMessage());
        assertTrue(in.valuesRead() <= 3, "read the first list and its string, nothing after: " + in.valuesRead());
    }

    @Test
    void attachmentsRefuseTheirFirstKeyThatIsNotAString() throws Exception {
        GuardedHessian2Input in = body(out -> HostileValues.writeMap(out, HostileValues.collidingLists(COLLIDING),
                "v"));
        IOException e = assertThrows(IOException.class, () -> RequestCodec.readAttachments(in));
        assertEquals("attachments: key 0 is a java.util.ArrayList, refused before it is hashed (attachment keys are"
                + " strings)", e.getMessage());
        assertTrue(in.valuesRead() <= 3, "read the first key only: " + in.valuesRead());
    }

    @Test
    void mapOfCollidingListKeysNeverHashesOne() throws Exception {
        CountingList.CALLS.set(0);
        GuardedHessian2Input in = body(out -> HostileValues.writeMap(out,
                HostileValues.collidingCountingLists(COLLIDING), "v"));
        CountingList.CALLS.set(0); // what writing them cost, if anything
        IOException e = assertThrows(IOException.class, () -> in.readObject(Map.class));
        assertTrue(e.getMessage().contains(CountingList.class.getName() + " as key 0 of a java.util.HashMap"),
                e.getMessage());
        assertEquals(0, CountingList.CALLS.get(), "no key was hashed or compared");
        assertTrue(in.valuesRead() <= 3, "read the first key only: " + in.valuesRead());
    }

    @Test
    void thirtyOneLevelsOfBackReferencedListsExceedTheValueBudgetAfterAFewLevels() throws Exception {
        assertBackReferenceBombRefused(31);
    }

    @Test
    void sixtyFourLevelsAreRefusedAlikeAtTheSameCost() throws Exception {
        assertBackReferenceBombRefused(64);
    }

    private void assertBackReferenceBombRefused(int levels) throws IOException {
        GuardedHessian2Input in = body(out -> out.writeObject(HostileValues.backReferencedLists(levels)));
        int bytes = bodies.get(bodies.size() - 1).readableBytes();
        assertTrue(bytes <= 4 * levels, levels + " levels take " + bytes + " bytes");
        IOException e = assertThrows(IOException.class, in::readObject);
        assertTrue(e.getMessage().contains("decode budget exceeded") && e.getMessage().contains(
                "DecodeBudget.MAX_VALUES"), e.getMessage());
        // 2^21 > MAX_VALUES: the reader stops within some 21 levels, each a few reads, whatever the depth sent
        assertTrue(in.backReferencesFollowed() <= 22, "back-references followed: " + in.backReferencesFollowed());
    }

    @Test
    void aBackReferencedGraphWithinTheBudgetIsStillNoKey() throws Exception {
        GuardedHessian2Input in = body(out -> HostileValues.writeMap(out,
                List.of(HostileValues.backReferencedLists(18)), "v"));
        IOException e = assertThrows(IOException.class, in::readObject);
        assertTrue(e.getMessage().contains("a java.util.ArrayList as key 0 of a java.util.HashMap"), e.getMessage());
    }

    @Test
    void anApplicationKeyThatRepeatsAnEarlierValueIsRefused() throws Exception {
        Key key = new Key("k", 1);
        // the map's key is written as a back-reference to the list's first element
        GuardedHessian2Input in = body(out -> out.writeObject(new ArrayList<>(List.of(key,
                new HashMap<>(Map.of(key, "v"))))));
        IOException e = assertThrows(IOException.class, in::readObject);
        assertTrue(e.getMessage().contains(Key.class.getName() + " as key 0") && e.getMessage().contains(
                "built from back-references"), e.getMessage());
    }

    @Test
    void backReferencesPastTheirBudgetAreRefused() throws Exception {
        List<Object> empty = new ArrayList<>();
        List<Object> repeats = new ArrayList<>();
        for (int i = 0; i <= DecodeBudget.MAX_BACK_REFERENCES + 1; i++) { // the first is the list itself
            repeats.add(empty);
        }
        GuardedHessian2Input in = body(out -> out.writeObject(repeats));
        IOException e = assertThrows(IOException.class, in::readObject);
        assertTrue(e.getMessage().contains("DecodeBudget.MAX_BACK_REFERENCES"), e.getMessage());
    }

    @Test
    void valuesPastTheirBudgetAreRefused() throws Exception {
        GuardedHessian2Input in = body(out -> {
            out.writeListBegin(DecodeBudget.MAX_VALUES + 1, null);
            for (int i = 0; i <= DecodeBudget.MAX_VALUES; i++) {
                out.writeNull();
            }
        });
        IOException e = assertThrows(IOException.class, in::readObject);
        assertTrue(e.getMessage().contains("more than " + DecodeBudget.MAX_VALUES + " values"), e.getMessage());
    }

    @Test
    void applicationKeysSharingOneHashCodeAreRefusedPastTheirCap() throws Exception {
        // a record's hash follows its fields': names that collide make keys that collide, and HashMap cannot
        // order records, so each insert would compare the key with every colliding one before it
        Map<Object, Object> flood = new LinkedHashMap<>();
        HostileValues.collidingStrings(COLLIDING).forEach(name -> flood.put(new Key(name, 1), 1));
        GuardedHessian2Input in = body(out -> out.writeObject(flood));
        IOException e = assertThrows(IOException.class, in::readObject);
        assertTrue(e.getMessage().contains(Key.class.getName() + " as key " + HashedKeys.MAX_SAME_HASH)
                && e.getMessage().contains("share one hash code"), e.getMessage());
        assertTrue(in.valuesRead() < 10 * HashedKeys.MAX_SAME_HASH, "stopped at the cap: " + in.valuesRead());

        Map<Object, Object> fewer = new LinkedHashMap<>();
        HostileValues.collidingStrings(HashedKeys.MAX_SAME_HASH).forEach(name -> fewer.put(new Key(name, 1), 1));
        assertEquals(fewer, body(out -> out.writeObject(fewer)).readObject(), "up to the cap, as before");
    }

    @Test
    void ordinaryKeysDecodeAsBefore() throws Exception {
        Map<Object, Object> strings = new HashMap<>();
        HostileValues.collidingStrings(COLLIDING).forEach(s -> strings.put(s, 1));
        Map<Object, Object> mixed = new LinkedHashMap<>();
        mixed.put(7L, "long");
        mixed.put(TimeUnit.SECONDS, "enum");
        mixed.put(LocalDate.of(2026, 1, 2), "date");
        mixed.put(new Key("k", 1), "application class");
        mixed.put(null, "null");
        Set<String> set = new HashSet<>(List.of("a", "b"));
        Map<String, Integer> sorted = new TreeMap<>(Map.of("b", 2, "a", 1));
        Greeting shared = new Greeting("hi");
        List<Object> values = List.of(strings, mixed, set, sorted, List.of(List.of("nested")), shared, shared);
        GuardedHessian2Input in = body(out -> out.writeObject(new ArrayList<>(values)));
        List<?> read = assertInstanceOf(List.class, in.readObject());
        assertEquals(COLLIDING, ((Map<?, ?>) read.get(0)).size(), "colliding strings: HashMap orders them");
        assertEquals(mixed, read.get(1));
        assertEquals(LinkedHashMap.class, read.get(1).getClass());
        assertEquals(set, read.get(2));
        assertEquals(TreeMap.class, read.get(3).getClass());
        assertEquals(sorted, read.get(3));
        assertEquals(List.of(List.of("nested")), read.get(4));
        assertSame(read.get(5), read.get(6), "a value repeated by back-reference is still one object");
    }

    /** A value shared by reference. */
    public record Greeting(String text) implements Serializable {
    }
}
