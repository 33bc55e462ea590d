package io.ferry.rpc.remoting.internal.serialize.fast;

import java.lang.reflect.Field;

/**
 * Reads fields at offsets through {@code sun.misc.Unsafe} (in {@code jdk.unsupported}, open to every class path
 * application), as hessian-lite's own default serializer does: without {@code setAccessible}, so that a JDK 17
 * class needs no {@code --add-opens}, and without a reflective call per field. Where it is unavailable the fast
 * path leaves objects to hessian-lite.
 */
final class FieldAccess {
    private static final sun.misc.Unsafe UNSAFE = load();

    private FieldAccess() {
    }

    private static sun.misc.Unsafe load() {
        try {
            Field theUnsafe = sun.misc.Unsafe.class.getDeclaredField("theUnsafe");
            theUnsafe.setAccessible(true);
            return (sun.misc.Unsafe) theUnsafe.get(null);
        } catch (ReflectiveOperationException | RuntimeException unavailable) {
            return null;
        }
    }

    static boolean available() {
        return UNSAFE != null;
    }

    static long offsetOf(Field field) {
        return UNSAFE.objectFieldOffset(field);
    }

    static boolean getBoolean(Object owner, long at) {
        return UNSAFE.getBoolean(owner, at);
    }

    static byte getByte(Object owner, long at) {
        return UNSAFE.getByte(owner, at);
    }

    static short getShort(Object owner, long at) {
        return UNSAFE.getShort(owner, at);
    }

    static int getInt(Object owner, long at) {
        return UNSAFE.getInt(owner, at);
    }

    static char getChar(Object owner, long at) {
        return UNSAFE.getChar(owner, at);
    }

    static long getLong(Object owner, long at) {
        return UNSAFE.getLong(owner, at);
    }

    static float getFloat(Object owner, long at) {
        return UNSAFE.getFloat(owner, at);
    }

    static double getDouble(Object owner, long at) {
        return UNSAFE.getDouble(owner, at);
    }

    static Object getObject(Object owner, long at) {
        return UNSAFE.getObject(owner, at);
    }
}
