package io.ferry.rpc.remoting.internal.serialize.fast;

/**
 * hessian2's compact forms of ints, longs, doubles and dates, put into a byte array that has room (the caller
 * checked). Each returns the offset after what it wrote.
 */
final class HessianNumbers {
    private HessianNumbers() {
    }

    static int putInt(byte[] b, int at, int value) {
        if (-0x10 <= value && value <= 0x2f) {
            b[at++] = (byte) (value + 0x90);
        } else if (-0x800 <= value && value <= 0x7ff) {
            b[at++] = (byte) (0xc8 + (value >> 8));
            b[at++] = (byte) value;
        } else if (-0x40000 <= value && value <= 0x3ffff) {
            b[at++] = (byte) (0xd4 + (value >> 16));
            b[at++] = (byte) (value >> 8);
            b[at++] = (byte) value;
        } else {
            b[at++] = 'I';
            at = putInt32(b, at, value);
        }
        return at;
    }

    static int putLong(byte[] b, int at, long value) {
        if (-0x08 <= value && value <= 0x0f) {
            b[at++] = (byte) (value + 0xe0);
        } else if (-0x800 <= value && value <= 0x7ff) {
            b[at++] = (byte) (0xf8 + (value >> 8));
            b[at++] = (byte) value;
        } else if (-0x40000 <= value && value <= 0x3ffff) {
            b[at++] = (byte) (0x3c + (value >> 16));
            b[at++] = (byte) (value >> 8);
            b[at++] = (byte) value;
        } else if (Integer.MIN_VALUE <= value && value <= Integer.MAX_VALUE) {
            b[at++] = 0x59;
            at = putInt32(b, at, (int) value);
        } else {
            b[at++] = 'L';
            at = putInt64(b, at, value);
        }
        return at;
    }

    /** Whole numbers in a byte or short, then thousandths that fit an int, then the 64 bits. */
    static int putDouble(byte[] b, int at, double value) {
        int whole = (int) value;
        if (whole == value) {
            if (whole == 0) {
                b[at++] = 0x5b;
                return at;
            }
            if (whole == 1) {
                b[at++] = 0x5c;
                return at;
            }
            if (-0x80 <= whole && whole < 0x80) {
                b[at++] = 0x5d;
                b[at++] = (byte) whole;
                return at;
            }
            if (-0x8000 <= whole && whole < 0x8000) {
                b[at++] = 0x5e;
                b[at++] = (byte) (whole >> 8);
                b[at++] = (byte) whole;
                return at;
            }
        }
        int mills = (int) (value * 1000);
        if (0.001 * mills == value) {
            b[at++] = 0x5f;
            return putInt32(b, at, mills);
        }
        b[at++] = 'D';
        return putInt64(b, at, Double.doubleToLongBits(value));
    }

    /** Whole minutes that fit 32 bits compactly, anything else in milliseconds. */
    static int putDate(byte[] b, int at, long millis) {
        if (millis % 60000L == 0) {
            long minutes = millis / 60000L;
            if ((minutes >> 31) == 0 || (minutes >> 31) == -1) {
                b[at++] = 0x4b;
                return putInt32(b, at, (int) minutes);
            }
        }
        b[at++] = 0x4a;
        return putInt64(b, at, millis);
    }

    private static int putInt32(byte[] b, int at, int value) {
        b[at] = (byte) (value >> 24);
        b[at + 1] = (byte) (value >> 16);
        b[at + 2] = (byte) (value >> 8);
        b[at + 3] = (byte) value;
        return at + 4;
    }

    private static int putInt64(byte[] b, int at, long value) {
        putInt32(b, at, (int) (value >> 32));
        return putInt32(b, at + 4, (int) value);
    }
}
