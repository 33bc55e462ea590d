package io.ferry.rpc.remoting.internal.serialize;

import com.alibaba.com.caucho.hessian.io.HessianProtocolException;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Collection;
import java.util.Currency;
import java.util.Date;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * Decides whether a key read from the wire may go into a map or set, before the map or set hashes it. A list's
 * hash walks every element, so lists as keys let a peer pick colliding hashes (HashMap then compares each new key
 * with every one before it: the square of the count) or hide 2^31 elements behind 31 back-references. Allowed:
 * <ul>
 *   <li>values whose hash is cheap and which HashMap can order when hashes collide: strings, boxed primitives,
 *       {@code BigDecimal}/{@code BigInteger}, enums, dates, {@code java.time}, {@code UUID}, {@code Locale},
 *       {@code Currency};</li>
 *   <li>other allowed classes (the application's own), unless reading the key followed a back-reference: a key
 *       that is, or holds, an earlier value may be a graph far larger than its bytes.</li>
 * </ul>
 * Collections, maps, map entries and arrays are refused as keys, whatever they hold.
 */
public final class HashedKeys {
    private static final Set<Class<?>> LEAVES = Set.of(Integer.class, Long.class, Short.class, Byte.class,
            Double.class, Float.class, Boolean.class, Character.class, BigDecimal.class, BigInteger.class,
            UUID.class, Locale.class, Currency.class);

    private HashedKeys() {
    }

    /**
     * Throws unless {@code key} may be hashed into its map or set; returns the count of collisions to pass with the
     * next key of the same container (see {@link #counted}). A string, the common key, costs one type test.
     *
     * @param seen             what the container's earlier keys returned, null for its first
     * @param viaBackReference whether reading (or converting) the key followed a back-reference
     * @param container        the map or set, named in the error
     * @param position         which key of the container this is, from 0, named in the error
     */
    public static Collisions admitted(Collisions seen, Object key, boolean viaBackReference, Object container,
                                      int position) throws HessianProtocolException {
        if (key == null || key instanceof String) {
            return seen;
        }
        if (isCheapLeaf(key)) {
            return key instanceof Comparable ? seen : counted(seen, key, container, position);
        }
        refuseUnhashable(key, viaBackReference, container, position);
        return counted(seen, key, container, position);
    }

    private static void refuseUnhashable(Object key, boolean viaBackReference, Object container, int position)
            throws HessianProtocolException {
        if (isStructure(key)) {
            throw refused(key, container, position, "its hash would walk every element it holds");
        }
        if (viaBackReference) {
            throw refused(key, container, position, "it was built from back-references, so it may be a graph far"
                    + " larger than its bytes");
        }
    }

    /**
     * Counts, for keys HashMap cannot order among themselves (the application's, {@code Locale}, a {@code Period}),
     * how many of one container share each hash code, and throws once {@link #MAX_SAME_HASH} do: a peer who can
     * make such keys collide would otherwise have each insert compare the key with every colliding one before it.
     * Keys HashMap orders when hashes collide (strings, numbers, enums, dates, most of {@code java.time}) cost a
     * logarithm, not a scan, and are not counted. Returns the count to pass with the next key: null until the
     * first counted key, so that a map of strings allocates nothing.
     */
    private static Collisions counted(Collisions seen, Object key, Object container, int position)
            throws HessianProtocolException {
        Collisions collisions = seen == null ? new Collisions() : seen;
        int sharing = collisions.counts.merge(key.hashCode(), 1, Integer::sum);
        if (sharing > MAX_SAME_HASH) {
            throw refused(key, container, position, sharing + " keys of this " + container.getClass().getSimpleName()
                    + " share one hash code (over " + MAX_SAME_HASH + ": a hash flood)");
        }
        return collisions;
    }

    /** Keys of one container that HashMap cannot order and that share one hash code: more are refused. */
    static final int MAX_SAME_HASH = 64;

    /** Hash codes of one container's counted keys, with how many keys share each. */
    public static final class Collisions {
        private final Map<Integer, Integer> counts = new HashMap<>();
    }

    private static boolean isCheapLeaf(Object key) {
        Class<?> type = key.getClass();
        return LEAVES.contains(type) || key instanceof Enum || key instanceof Date
                || type.getName().startsWith("java.time.");
    }

    private static boolean isStructure(Object key) {
        return key instanceof Collection || key instanceof Map || key instanceof Map.Entry
                || key.getClass().isArray();
    }

    private static HessianProtocolException refused(Object key, Object container, int position, String why) {
        return new HessianProtocolException("a " + key.getClass().getName() + " as key " + position + " of a "
                + container.getClass().getName() + " is refused before it is hashed: " + why
                + " (keys may be strings, numbers, enums, dates or allowed application classes)");
    }
}
