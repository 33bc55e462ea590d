package io.ferry.rpc.remoting.internal.serialize;

import com.alibaba.com.caucho.hessian.io.Hessian2Input;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.charset.StandardCharsets;

/**
 * The bytes Hessian2Input has read ahead into its private buffer, so that an ASCII string is taken from there in
 * one copy rather than through {@code read()} byte by byte. The buffer, its offset and its length are private to
 * hessian-lite 4.0.x; they are reached through variable handles (hessian-lite is on the class path, or an automatic
 * module, so its packages are open). Where they are not found, {@link #available()} is false and strings are read
 * byte by byte, with the same result.
 */
final class ReadAhead {
    private static final VarHandle BUFFER;
    private static final VarHandle OFFSET;
    private static final VarHandle LENGTH;

    static {
        VarHandle buffer = null;
        VarHandle offset = null;
        VarHandle length = null;
        try {
            MethodHandles.Lookup lookup = MethodHandles.privateLookupIn(Hessian2Input.class, MethodHandles.lookup());
            buffer = lookup.findVarHandle(Hessian2Input.class, "_buffer", byte[].class);
            offset = lookup.findVarHandle(Hessian2Input.class, "_offset", int.class);
            length = lookup.findVarHandle(Hessian2Input.class, "_length", int.class);
        } catch (ReflectiveOperationException | RuntimeException unavailable) {
            buffer = null;
        }
        BUFFER = buffer;
        OFFSET = offset;
        LENGTH = length;
    }

    private ReadAhead() {
    }

    static boolean available() {
        return BUFFER != null;
    }

    /**
     * The next {@code count} bytes as a String if they are all buffered and all ASCII, consumed; else null, and
     * nothing consumed.
     */
    static String asciiString(Hessian2Input in, int count) {
        int offset = (int) OFFSET.get(in);
        if ((int) LENGTH.get(in) - offset < count) {
            return null;
        }
        byte[] buffer = (byte[]) BUFFER.get(in);
        if (!isAscii(buffer, offset, offset + count)) {
            return null;
        }
        OFFSET.set(in, offset + count);
        return new String(buffer, offset, count, StandardCharsets.ISO_8859_1);
    }

    /** Copies the buffered ASCII bytes, at most {@code max}, up to the first other byte; returns how many. */
    static int copyAscii(Hessian2Input in, byte[] into, int at, int max) {
        int offset = (int) OFFSET.get(in);
        int end = Math.min((int) LENGTH.get(in), offset + max);
        byte[] buffer = (byte[]) BUFFER.get(in);
        int i = offset;
        while (i < end && buffer[i] >= 0) {
            i++;
        }
        int count = i - offset;
        System.arraycopy(buffer, offset, into, at, count);
        OFFSET.set(in, i);
        return count;
    }

    /** One pass without an early exit, which the JIT turns into vector instructions. */
    private static boolean isAscii(byte[] bytes, int from, int to) {
        int bits = 0;
        for (int i = from; i < to; i++) {
            bits |= bytes[i];
        }
        return bits >= 0;
    }
}
