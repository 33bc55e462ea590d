package io.ferry.rpc.remoting.internal.serialize.fast;

import java.lang.reflect.Field;

/**
 * Reads and sets fields at offsets, and makes instances without a constructor, through {@code sun.misc.Unsafe} (in
 * {@code jdk.unsupported}, open to every class path application), as hessian-lite's own default serializer and
 * deserializer do: without {@code setAccessible}, so that a JDK 17 class needs no {@code --add-opens}, and without a
 * reflective call per field. Where it is unavailable the fast path leaves objects to hessian-lite. Setting a field
 * checks nothing: the caller has made sure the value fits the field's type.
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

    /** An instance of {@code type} with every field at its default, no constructor run (as hessian-lite makes one). */
    static Object allocate(Class<?> type) throws InstantiationException {
        return UNSAFE.allocateInstance(type);
    }

    static void putBoolean(Object owner, long at, boolean value) {
        UNSAFE.putBoolean(owner, at, value);
    }

    static void putByte(Object owner, long at, byte value) {
        UNSAFE.putByte(owner, at, value);
    }

    static void putShort(Object owner, long at, short value) {
        UNSAFE.putShort(owner, at, value);
    }

    static void putInt(Object owner, long at, int value) {
        UNSAFE.putInt(owner, at, value);
    }

    static void putChar(Object owner, long at, char value) {
        UNSAFE.putChar(owner, at, value);
    }

    static void putLong(Object owner, long at, long value) {
        UNSAFE.putLong(owner, at, value);
    }

    static void putFloat(Object owner, long at, float value) {
        UNSAFE.putFloat(owner, at, value);
    }

    static void putDouble(Object owner, long at, double value) {
        UNSAFE.putDouble(owner, at, value);
    }

    static void putObject(Object owner, long at, Object value) {
        UNSAFE.putObject(owner, at, value);
    }
}
