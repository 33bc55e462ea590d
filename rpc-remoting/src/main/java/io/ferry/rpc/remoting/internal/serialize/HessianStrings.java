package io.ferry.rpc.remoting.internal.serialize;

import com.alibaba.com.caucho.hessian.io.HessianProtocolException;

import java.io.EOFException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Reads hessian2 strings faster than hessian-lite, which appends char by char to a StringBuilder: the bytes of an
 * ASCII string are collected as they are and become a (compact) String in one copy; anything else is decoded as
 * hessian's UTF-8 (one to three bytes per char, a surrogate on its own) into a char array. A claimed length must
 * fit in the bytes left, and a string cut short is an error rather than the shorter string hessian-lite returns.
 * One per input, not thread-safe.
 */
final class HessianStrings {
    private final GuardedHessian2Input in;
    private byte[] ascii;
    private char[] chars;

    HessianStrings(GuardedHessian2Input in) {
        this.in = in;
    }

    /** Whether {@code tag} starts a string: short (0x00-0x1f), medium (0x30-0x33), final 'S' or chunk 'R'. */
    static boolean isStringTag(int tag) {
        return (tag >= 0 && tag <= 0x1f) || (tag >= 0x30 && tag <= 0x33) || tag == 'S' || tag == 'R';
    }

    /** The string whose tag ({@link #isStringTag}) was just read. */
    String read(int tag) throws IOException {
        int n = 0;
        boolean isAscii = true;
        while (true) {
            int length;
            if (tag <= 0x1f) {
                length = tag;
            } else if (tag <= 0x33) {
                length = ((tag - 0x30) << 8) + readByte();
            } else {
                length = (readByte() << 8) + readByte();
            }
            in.checkClaimedLength(length, "string");
            if (n == 0 && tag != 'R' && ReadAhead.available()) {
                String whole = ReadAhead.asciiString(in, length); // the common case: one chunk, ASCII, buffered
                if (whole != null) {
                    return whole;
                }
            }
            if (isAscii) {
                ensureAscii(n + length);
                int end = n + length;
                while (n < end) {
                    if (ReadAhead.available()) {
                        n += ReadAhead.copyAscii(in, ascii, n, end - n);
                        if (n == end) {
                            break;
                        }
                    }
                    int b = in.read(); // refills the buffer, or a non-ASCII byte
                    if (b < 0x80) {
                        if (b < 0) {
                            throw new EOFException("string ends early");
                        }
                        ascii[n++] = (byte) b;
                    } else {
                        isAscii = false;
                        ensureChars(end);
                        for (int i = 0; i < n; i++) {
                            chars[i] = (char) ascii[i];
                        }
                        chars[n++] = decode(b);
                        break;
                    }
                }
                if (!isAscii) {
                    while (n < end) {
                        chars[n++] = decode(in.read());
                    }
                }
            } else {
                ensureChars(n + length);
                for (int end = n + length; n < end; ) {
                    chars[n++] = decode(in.read());
                }
            }
            if (tag != 'R') {
                break;
            }
            tag = in.read();
            if (!isStringTag(tag)) {
                throw new HessianProtocolException("expected a string chunk, not " + describe(tag));
            }
        }
        return isAscii ? new String(ascii, 0, n, StandardCharsets.ISO_8859_1) : new String(chars, 0, n);
    }

    /** One char from its first byte: hessian writes every char on its own, in one to three bytes. */
    private char decode(int first) throws IOException {
        if (first < 0x80) {
            if (first < 0) {
                throw new EOFException("string ends early");
            }
            return (char) first;
        }
        if ((first & 0xe0) == 0xc0) {
            return (char) (((first & 0x1f) << 6) | (readByte() & 0x3f));
        }
        if ((first & 0xf0) == 0xe0) {
            int second = readByte();
            return (char) (((first & 0x0f) << 12) | ((second & 0x3f) << 6) | (readByte() & 0x3f));
        }
        throw new HessianProtocolException("bad utf-8 encoding: " + describe(first));
    }

    private int readByte() throws IOException {
        int b = in.read();
        if (b < 0) {
            throw new EOFException("string ends early");
        }
        return b;
    }

    private void ensureAscii(int capacity) {
        if (ascii == null) {
            ascii = new byte[Math.max(capacity, 64)]; // only for strings not read whole from the read-ahead
        } else if (ascii.length < capacity) {
            ascii = Arrays.copyOf(ascii, Math.max(capacity, ascii.length * 2)); // a chunked string keeps its start
        }
    }

    private void ensureChars(int capacity) {
        if (chars == null) {
            chars = new char[Math.max(capacity, 64)];
        } else if (chars.length < capacity) {
            chars = Arrays.copyOf(chars, Math.max(capacity, chars.length * 2));
        }
    }

    private static String describe(int b) {
        return b < 0 ? "the end of the body" : String.format("0x%02x", b);
    }
}
