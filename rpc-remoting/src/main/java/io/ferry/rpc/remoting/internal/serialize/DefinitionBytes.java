package io.ferry.rpc.remoting.internal.serialize;

/**
 * Where a hessian2 class definition ends: {@code 'C'}, the type name as a string, the field count as an int, then
 * that many field names as strings. Only the forms hessian-lite writes for names are followed (strings of one chunk
 * up to 65,535 chars, ints in any form); anything else, or bytes that run past the limit, gives -1: not known.
 */
final class DefinitionBytes {
    private DefinitionBytes() {
    }

    /** The offset just past the definition starting at {@code from} ('C'), or -1. */
    static int end(byte[] b, int from, int limit) {
        if (from >= limit || b[from] != ClassDefinitions.DEFINITION) {
            return -1;
        }
        int p = skipString(b, from + 1, limit);
        if (p < 0 || p >= limit) {
            return -1;
        }
        int tag = b[p] & 0xff;
        int fields;
        if (tag >= 0x80 && tag <= 0xbf) {
            fields = tag - 0x90;
            p += 1;
        } else if (tag >= 0xc0 && tag <= 0xcf && p + 1 < limit) {
            fields = ((tag - 0xc8) << 8) + (b[p + 1] & 0xff);
            p += 2;
        } else if (tag >= 0xd0 && tag <= 0xd7 && p + 2 < limit) {
            fields = ((tag - 0xd4) << 16) + ((b[p + 1] & 0xff) << 8) + (b[p + 2] & 0xff);
            p += 3;
        } else {
            return -1;
        }
        for (int i = 0; i < fields && p >= 0; i++) {
            p = skipString(b, p, limit);
        }
        return fields < 0 ? -1 : p;
    }

    /** The offset just past the string at {@code p}, or -1. */
    private static int skipString(byte[] b, int p, int limit) {
        if (p >= limit) {
            return -1;
        }
        int tag = b[p] & 0xff;
        int chars;
        if (tag <= 0x1f) {
            chars = tag;
            p += 1;
        } else if (tag >= 0x30 && tag <= 0x33 && p + 1 < limit) {
            chars = ((tag - 0x30) << 8) + (b[p + 1] & 0xff);
            p += 2;
        } else if (tag == 'S' && p + 2 < limit) {
            chars = ((b[p + 1] & 0xff) << 8) + (b[p + 2] & 0xff);
            p += 3;
        } else {
            return -1;
        }
        for (int i = 0; i < chars; i++) {
            if (p >= limit) {
                return -1;
            }
            int lead = b[p] & 0xff;
            if (lead < 0x80) {
                p += 1;
            } else if ((lead & 0xe0) == 0xc0) {
                p += 2;
            } else if ((lead & 0xf0) == 0xe0) {
                p += 3;
            } else {
                return -1;
            }
        }
        return p <= limit ? p : -1;
    }
}
