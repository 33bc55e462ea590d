package io.ferry.rpc.remoting.internal.serialize;

import java.lang.reflect.Field;
import java.util.Objects;

/**
 * Puts back the exact message of a rebuilt exception. Constructors often decorate their argument
 * ({@code super("no such key: " + key)}) or take none, so passing the received message to a constructor can
 * double it or lose it. Throwable has no setter and JDK 17 refuses reflective access to its field without
 * {@code --add-opens}, so this writes the field through {@code sun.misc.Unsafe} (in {@code jdk.unsupported}, open
 * to every class path application, as serialization libraries use it); where that is unavailable the
 * constructor's message stays.
 */
final class ThrowableMessage {
    private static final sun.misc.Unsafe UNSAFE;
    private static final long DETAIL_MESSAGE;

    static {
        sun.misc.Unsafe unsafe = null;
        long offset = -1;
        try {
            Field theUnsafe = sun.misc.Unsafe.class.getDeclaredField("theUnsafe");
            theUnsafe.setAccessible(true);
            unsafe = (sun.misc.Unsafe) theUnsafe.get(null);
            offset = unsafe.objectFieldOffset(Throwable.class.getDeclaredField("detailMessage"));
        } catch (ReflectiveOperationException | RuntimeException unavailable) {
            unsafe = null;
        }
        UNSAFE = unsafe;
        DETAIL_MESSAGE = offset;
    }

    private ThrowableMessage() {
    }

    /** Makes {@code t}'s own message {@code message}, if the constructor left it otherwise. */
    static void restore(Throwable t, String message) {
        if (UNSAFE == null || Objects.equals(detailMessage(t), message)) {
            return;
        }
        UNSAFE.putObject(t, DETAIL_MESSAGE, message);
    }

    private static String detailMessage(Throwable t) {
        return UNSAFE == null ? t.getMessage() : (String) UNSAFE.getObject(t, DETAIL_MESSAGE);
    }
}
