package io.ferry.rpc.remoting.internal.serialize.fast;

import java.util.Arrays;

/**
 * Objects by identity to small ints, for hessian's value references and class definitions: an open-addressing table
 * that is cheap to clear when little was put in it, which is the common case of one frame.
 * Not thread-safe.
 */
final class IdentityIndex {
    /** Returned by {@link #get} for an absent key. */
    static final int ABSENT = -1;

    private Object[] keys = new Object[64];
    private int[] values = new int[64];
    private int size;

    int size() {
        return size;
    }

    int get(Object key) {
        Object[] k = keys;
        int mask = k.length - 1;
        for (int i = slot(key, mask); ; i = (i + 1) & mask) {
            Object found = k[i];
            if (found == null) {
                return ABSENT;
            }
            if (found == key) {
                return values[i];
            }
        }
    }

    /** Maps {@code key} to {@code value} unless it is present; returns the value it now has. */
    int putIfAbsent(Object key, int value) {
        Object[] k = keys;
        int mask = k.length - 1;
        int i = slot(key, mask);
        for (Object found; (found = k[i]) != null; i = (i + 1) & mask) {
            if (found == key) {
                return values[i];
            }
        }
        k[i] = key;
        values[i] = value;
        if (++size * 2 > k.length) {
            grow();
        }
        return value;
    }

    /** Maps {@code key} to {@code value}, present or not. */
    void put(Object key, int value) {
        remove(key);
        putIfAbsent(key, value);
    }

    void remove(Object key) {
        Object[] k = keys;
        int mask = k.length - 1;
        int i = slot(key, mask);
        while (k[i] != key) {
            if (k[i] == null) {
                return;
            }
            i = (i + 1) & mask;
        }
        k[i] = null;
        size--;
        // shift back the entries of the probe run after the hole, so that lookups keep finding them
        for (int j = (i + 1) & mask; k[j] != null; j = (j + 1) & mask) {
            Object moved = k[j];
            int home = slot(moved, mask);
            boolean reachable = i <= j ? (home <= i || home > j) : (home <= i && home > j);
            if (reachable) {
                k[i] = moved;
                values[i] = values[j];
                k[j] = null;
                i = j;
            }
        }
    }

    void clear() {
        if (size > 0) {
            Arrays.fill(keys, null);
            size = 0;
        }
    }

    private void grow() {
        Object[] oldKeys = keys;
        int[] oldValues = values;
        keys = new Object[oldKeys.length * 2];
        values = new int[oldKeys.length * 2];
        size = 0;
        for (int i = 0; i < oldKeys.length; i++) {
            if (oldKeys[i] != null) {
                putIfAbsent(oldKeys[i], oldValues[i]);
            }
        }
    }

    private static int slot(Object key, int mask) {
        int h = System.identityHashCode(key);
        return (h ^ (h >>> 16)) & mask;
    }
}
