package io.ferry.rpc.remoting.internal.codec;

/**
 * The Dubbo 2 frame: a 16-byte big-endian header, then a body in the serialization the flag names.
 *
 * <pre>
 *  0        1        2        3        4                                  12                 16
 * +--------+--------+--------+--------+----------------------------------+------------------+---------------+
 * |  0xDA  |  0xBB  |  flag  | status |  request id (signed int64)       | body length      |  body ...     |
 * +--------+--------+--------+--------+----------------------------------+  (signed int32)  +---------------+
 *                       |                                                 +------------------+
 *        flag bits:  7 request | 6 two-way | 5 event | 4..0 serialization id (hessian2 = 2)
 *        status:     responses only: 20 OK, 25, 40, 50, 60, 70, 80, 90, 100 (see RpcStatus)
 * </pre>
 *
 * A heartbeat is an event request whose body is the serialization's null (hessian2 {@code N}); its answer echoes
 * the body with the event flag. A readonly event is a one-way event request whose body is the string {@code "R"}
 * ({@code "W"} clears it). Ids may be negative and answers may come out of order.
 */
public final class Frame {
    public static final int HEADER_LENGTH = 16;
    public static final short MAGIC = (short) 0xdabb;
    public static final byte MAGIC_HIGH = (byte) 0xda;
    public static final byte MAGIC_LOW = (byte) 0xbb;

    public static final int FLAG_REQUEST = 0x80;
    public static final int FLAG_TWO_WAY = 0x40;
    public static final int FLAG_EVENT = 0x20;
    public static final int SERIALIZATION_MASK = 0x1f;

    public static final byte HESSIAN2 = 2;
    public static final byte FASTJSON2 = 23;

    public static final byte STATUS_OK = 20;

    /** hessian2's encoding of null: the body of every heartbeat. */
    public static final byte HESSIAN2_NULL = 'N';
    /** Event bodies larger than this are refused, as Dubbo does ({@code deserialization.event.size}). */
    public static final int MAX_EVENT_BODY = 15;

    /** The protocol version a Dubbo consumer writes and expects. */
    public static final String DUBBO_VERSION = "2.0.2";

    /** Response body flags (written as a hessian int). */
    public static final int RESPONSE_WITH_EXCEPTION = 0;
    public static final int RESPONSE_VALUE = 1;
    public static final int RESPONSE_NULL_VALUE = 2;
    public static final int RESPONSE_WITH_EXCEPTION_WITH_ATTACHMENTS = 3;
    public static final int RESPONSE_VALUE_WITH_ATTACHMENTS = 4;
    public static final int RESPONSE_NULL_VALUE_WITH_ATTACHMENTS = 5;

    private Frame() {
    }

    public static boolean isRequest(byte flag) {
        return (flag & FLAG_REQUEST) != 0;
    }

    public static boolean isTwoWay(byte flag) {
        return (flag & FLAG_TWO_WAY) != 0;
    }

    public static boolean isEvent(byte flag) {
        return (flag & FLAG_EVENT) != 0;
    }

    public static byte serialization(byte flag) {
        return (byte) (flag & SERIALIZATION_MASK);
    }

    /**
     * Whether a peer's protocol version gets responses with attachments (flags 3/4/5): versions 2.0.2 to 2.0.99,
     * as Dubbo's {@code Version.isSupportResponseAttachment} decides.
     */
    public static boolean supportsResponseAttachments(String version) {
        if (DUBBO_VERSION.equals(version)) {
            return true; // what every current consumer sends: no parsing on the request path
        }
        if (version == null || !version.startsWith("2.0.")) {
            return false;
        }
        try {
            int patch = Integer.parseInt(version.substring(4));
            return patch >= 2 && patch <= 99;
        } catch (NumberFormatException e) {
            return false;
        }
    }
}
