package io.ferry.rpc.remoting.internal.codec;

import io.ferry.rpc.remoting.internal.serialize.GuardedHessian2Input;
import io.ferry.rpc.remoting.internal.serialize.SafeSerializerFactory;
import io.netty.buffer.ByteBuf;

import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * Reads the one string carried by an error answer or an event. A stock Dubbo 3.x provider writes those in
 * fastjson2's JSONB (id 23) even to hessian2 requests; only the string forms are read here, never arbitrary JSONB.
 */
public final class ErrorBodies {

    // fastjson2 JSONB type bytes for strings and small ints
    private static final int STR_ASCII_FIX_MIN = 0x49;
    private static final int STR_ASCII_FIX_MAX = 0x78;
    private static final int STR_ASCII = 0x79;
    private static final int STR_UTF8 = 0x7a;
    private static final int INT32_NUM_MIN = -16;
    private static final int INT32_NUM_MAX = 47;
    private static final int INT32_BYTE_MAX = 63;
    private static final int INT32_SHORT_MAX = 71;
    private static final int INT32 = 72;

    private ErrorBodies() {
    }

    private static String readHessianString(ByteBuf view) throws IOException {
        GuardedHessian2Input in = GuardedHessian2Input.open(view, SafeSerializerFactory.jdkOnly());
        try {
            return in.readString();
        } finally {
            in.release();
        }
    }

    /** The string in the body, or null when it is neither hessian2 nor a JSONB string. Does not move the body. */
    public static String readString(byte serialization, ByteBuf body) {
        ByteBuf view = body.duplicate();
        try {
            if (serialization == Frame.HESSIAN2) {
                // only a string tag is read: anything else could make hessian decode a whole object graph
                return isHessianString(view) ? readHessianString(view) : null;
            }
            if (serialization == Frame.FASTJSON2) {
                return readJsonbString(view);
            }
        } catch (Exception | StackOverflowError e) {
            return null;
        }
        return null;
    }

    /** hessian2 string tags: short (0x00-0x1f), medium (0x30-0x33), final chunk 'S', non-final chunk 'R', null 'N'. */
    private static boolean isHessianString(ByteBuf body) {
        if (!body.isReadable()) {
            return false;
        }
        int tag = body.getUnsignedByte(body.readerIndex());
        return tag <= 0x1f || (tag >= 0x30 && tag <= 0x33) || tag == 'S' || tag == 'R' || tag == 'N';
    }

    /** fastjson2 writes each value as an int32 length followed by the JSONB bytes. */
    private static String readJsonbString(ByteBuf in) {
        int length = in.readInt();
        if (length < 1 || length > in.readableBytes()) {
            return null;
        }
        int type = in.readUnsignedByte();
        int strLength;
        if (type >= STR_ASCII_FIX_MIN && type <= STR_ASCII_FIX_MAX) {
            strLength = type - STR_ASCII_FIX_MIN;
        } else if (type == STR_ASCII || type == STR_UTF8) {
            strLength = readJsonbInt(in);
        } else {
            return null;
        }
        if (strLength < 0 || strLength > in.readableBytes()) {
            return null;
        }
        return in.readCharSequence(strLength,
                type == STR_UTF8 ? StandardCharsets.UTF_8 : StandardCharsets.ISO_8859_1).toString();
    }

    private static int readJsonbInt(ByteBuf in) {
        byte b = in.readByte();
        if (b >= INT32_NUM_MIN && b <= INT32_NUM_MAX) {
            return b;
        }
        if (b <= INT32_BYTE_MAX) {
            return ((b - 56) << 8) + in.readUnsignedByte();
        }
        if (b <= INT32_SHORT_MAX) {
            return ((b - 68) << 16) + in.readUnsignedShort();
        }
        if (b == INT32) {
            return in.readInt();
        }
        return -1;
    }
}
