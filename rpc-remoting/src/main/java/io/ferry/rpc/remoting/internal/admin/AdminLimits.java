package io.ferry.rpc.remoting.internal.admin;

/**
 * What the admin port accepts of a request. Its routes take no body, so every limit is small: a request over one
 * is answered (413, 414 or 431) and its connection closed.
 *
 * @param requestTimeoutNanos a request must be complete this long after its connection opened or the previous
 *                            answer was written; else 408 (or, with no byte of it read, a silent close)
 * @param acceptForeignIp     whether peers other than this machine are served; else 403
 */
public record AdminLimits(long requestTimeoutNanos, boolean acceptForeignIp) {
    /** The request line: method, path and query. */
    public static final int MAX_LINE_BYTES = 4096;
    /** Every header together. */
    public static final int MAX_HEADER_BYTES = 8192;
    public static final int MAX_BODY_BYTES = 8192;
    /** Connections open at once; more are closed at once. */
    public static final int MAX_CONNECTIONS = 32;
}
