package io.ferry.rpc.remoting.internal.serialize;

import com.alibaba.com.caucho.hessian.io.Hessian2Input;
import com.alibaba.com.caucho.hessian.io.SerializerFactory;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Arrays;
import java.util.List;

/**
 * The class definitions one reused input has read lately, by their bytes. Every body defines afresh each class it
 * holds, so the answers of one method repeat one definition call after call, and hessian-lite reads each into a
 * type name, a name per field (each a new String) and a field reader looked up per name. When a definition's bytes
 * are all in hessian-lite's read-ahead and equal to one read before with the factory in use now (the one a
 * definition's reader came from: a request's arguments are read with its service's, its head with another), the
 * definition made then is registered again, and not one string is made.
 *
 * <p>Reached through hessian-lite's private read-ahead ({@link ReadAhead}) and its private list of definitions; where
 * either is missing, nothing is remembered and hessian-lite reads every definition. A definition is remembered only
 * after hessian-lite has read it whole, so every check on it (the allow-list, the field count) was passed once with
 * the same bytes. Not thread-safe: one per input.
 */
final class ClassDefinitions {
    static final int DEFINITION = 'C';
    /** Definitions longer than this are not remembered: no real class needs it, and it bounds what is kept. */
    static final int LONGEST_REMEMBERED = 2048;
    private static final int SLOTS = 16;
    private static final VarHandle CLASS_DEFS = classDefs();

    private final byte[][] bytes = new byte[SLOTS][];
    private final Object[] definitions = new Object[SLOTS];
    private final SerializerFactory[] factories = new SerializerFactory[SLOTS];

    private static VarHandle classDefs() {
        try {
            return MethodHandles.privateLookupIn(Hessian2Input.class, MethodHandles.lookup())
                    .findVarHandle(Hessian2Input.class, "_classDefs", java.util.ArrayList.class);
        } catch (ReflectiveOperationException | RuntimeException unavailable) {
            return null;
        }
    }

    /** A memory for one input, or null where hessian-lite's internals are not as expected. */
    static ClassDefinitions create() {
        return CLASS_DEFS != null && ReadAhead.available() ? new ClassDefinitions() : null;
    }

    /**
     * At a definition's tag, not yet read: the definition's bytes, copied, if they are all buffered and short enough
     * to remember; else null. The copy is the key to {@link #remember} once hessian-lite has read them.
     */
    byte[] bytesAhead(Hessian2Input in) {
        byte[] buffer = ReadAhead.buffer(in);
        int start = ReadAhead.offset(in);
        int end = DefinitionBytes.end(buffer, start, ReadAhead.length(in));
        if (end < 0 || end - start > LONGEST_REMEMBERED) {
            return null;
        }
        return Arrays.copyOfRange(buffer, start, end);
    }

    /**
     * At a definition's tag, not yet read: registers the definition remembered for these very bytes and consumes
     * them; false, consuming nothing, when none is.
     */
    boolean reuse(Hessian2Input in, SerializerFactory factory) {
        byte[] buffer = ReadAhead.buffer(in);
        int start = ReadAhead.offset(in);
        int end = DefinitionBytes.end(buffer, start, ReadAhead.length(in));
        if (end < 0) {
            return false;
        }
        int slot = slot(buffer, start, end);
        byte[] known = bytes[slot];
        if (known == null || factories[slot] != factory || !Arrays.equals(known, 0, known.length, buffer, start, end)) {
            return false;
        }
        list(in).add(definitions[slot]);
        ReadAhead.skipTo(in, end);
        return true;
    }

    /** Remembers the definition hessian-lite registered at {@code index} for {@code key}, its bytes. */
    void remember(Hessian2Input in, int index, byte[] key, SerializerFactory factory) {
        List<Object> registered = list(in);
        if (index >= registered.size()) {
            return;
        }
        int slot = slot(key, 0, key.length);
        bytes[slot] = key;
        definitions[slot] = registered.get(index);
        factories[slot] = factory;
    }

    /** The definition {@code in} registered at {@code index} in this body. */
    static Object definitionAt(Hessian2Input in, int index) {
        return list(in).get(index);
    }

    /** How many definitions {@code in} has registered so far in this body. */
    static int registered(Hessian2Input in) {
        return list(in).size();
    }

    @SuppressWarnings("unchecked")
    private static List<Object> list(Hessian2Input in) {
        return (List<Object>) CLASS_DEFS.get(in);
    }

    /** The length and a few bytes from each end: cheap, and any mix-up is caught by comparing the bytes. */
    private static int slot(byte[] b, int start, int end) {
        int h = end - start;
        for (int i = start; i < Math.min(end, start + 24); i++) {
            h = 31 * h + b[i];
        }
        for (int i = Math.max(start, end - 8); i < end; i++) {
            h = 31 * h + b[i];
        }
        return (h ^ (h >>> 16)) & (SLOTS - 1);
    }
}
