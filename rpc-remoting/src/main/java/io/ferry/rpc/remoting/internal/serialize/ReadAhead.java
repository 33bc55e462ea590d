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
        // The JDK decodes ASCII as UTF-8 with one vectorised check and one copy. These bytes were ASCII exactly if
        // they gave as many chars as bytes, none of them a replacement: a multi-byte char gives fewer, and a
        // malformed byte gives U+FFFD, which a compact (Latin-1) String cannot hold, so looking for it is free.
        byte[] buffer = (byte[]) BUFFER.get(in);
        String decoded = new String(buffer, offset, count, StandardCharsets.UTF_8);
        if (decoded.length() != count || decoded.indexOf('\uFFFD') >= 0) {
            return null;
        }
        OFFSET.set(in, offset + count);
        return decoded;
    }

    static byte[] buffer(Hessian2Input in) {
        return (byte[]) BUFFER.get(in);
    }

    /** Where the next byte is in {@link #buffer}. */
    static int offset(Hessian2Input in) {
        return (int) OFFSET.get(in);
    }

    /** Where the buffered bytes end in {@link #buffer}. */
    static int length(Hessian2Input in) {
        return (int) LENGTH.get(in);
    }

    /** Consumes the buffered bytes up to {@code offset}. */
    static void skipTo(Hessian2Input in, int offset) {
        OFFSET.set(in, offset);
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
}
