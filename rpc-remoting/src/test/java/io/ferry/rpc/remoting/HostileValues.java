package io.ferry.rpc.remoting;

import com.alibaba.com.caucho.hessian.io.Hessian2Output;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The values of the hash-flooding reports, built without hashing them on this side: keys that share one hash code,
 * and lists built from back-references whose walk takes 2^levels steps. Written entry by entry, since putting them
 * in a HashMap here would cost the test what the attack costs the provider.
 */
public final class HostileValues {
    private HostileValues() {
    }

    /**
     * {@code count} distinct strings with one hash code: "Aa" and "BB" hash alike, so any sequence of them does too.
     */
    public static List<String> collidingStrings(int count) {
        int blocks = 32 - Integer.numberOfLeadingZeros(count);
        List<String> strings = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            StringBuilder s = new StringBuilder(2 * blocks);
            for (int b = 0; b < blocks; b++) {
                s.append((i >>> b & 1) == 0 ? "Aa" : "BB");
            }
            strings.add(s.toString());
        }
        return strings;
    }

    /** {@code count} distinct one-element lists with one hash code (a list's hash is 31 + its element's). */
    public static List<Object> collidingLists(int count) {
        List<Object> lists = new ArrayList<>(count);
        for (String s : collidingStrings(count)) {
            lists.add(new ArrayList<>(List.of(s)));
        }
        return lists;
    }

    /** As {@link #collidingLists}, as lists that count how often they are hashed or compared. */
    public static List<Object> collidingCountingLists(int count) {
        List<Object> lists = new ArrayList<>(count);
        for (String s : collidingStrings(count)) {
            CountingList list = new CountingList();
            list.add(s);
            lists.add(list);
        }
        return lists;
    }

    /**
     * A list holding the list of the level below twice, {@code levels} deep over an empty list: hessian writes the
     * second copy as a back-reference, so it takes about three bytes a level, and 2^levels lists to walk.
     */
    public static List<Object> backReferencedLists(int levels) {
        List<Object> level = new ArrayList<>();
        for (int i = 0; i < levels; i++) {
            List<Object> next = new ArrayList<>(2);
            next.add(level);
            next.add(level);
            level = next;
        }
        return level;
    }

    /**
     * An untyped map ('H') of {@code keys}, each with {@code value}. Counted as a reference, as hessian's own map
     * writer does (and every reader), so that back-references inside point where the writer meant.
     */
    public static void writeMap(Hessian2Output out, List<?> keys, Object value) throws IOException {
        out.addRef(new Object());
        out.writeMapBegin(null);
        for (Object key : keys) {
            out.writeObject(key);
            out.writeObject(value);
        }
        out.writeMapEnd();
    }

    /** A {@code java.util.HashSet} of {@code elements}, counted as a reference like the map above. */
    public static void writeHashSet(Hessian2Output out, List<?> elements) throws IOException {
        out.addRef(new Object());
        out.writeListBegin(elements.size(), "java.util.HashSet");
        for (Object element : elements) {
            out.writeObject(element);
        }
    }

    /** A list that counts, over all instances, the calls of hashCode and equals: the work a map does on keys. */
    public static final class CountingList extends ArrayList<Object> {
        private static final long serialVersionUID = 1L;
        public static final AtomicLong CALLS = new AtomicLong();

        @Override
        public int hashCode() {
            CALLS.incrementAndGet();
            return super.hashCode();
        }

        @Override
        public boolean equals(Object o) {
            CALLS.incrementAndGet();
            return super.equals(o);
        }
    }
}
