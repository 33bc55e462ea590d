package io.ferry.rpc;

/**
 * Why a remote call failed. Each status that travels on the wire carries the Dubbo 2 status byte it is sent as;
 * statuses that only ever arise locally (a timeout on the consumer, a closed connection) still carry the byte Dubbo
 * uses for the same situation, so logs read the same on both sides.
 */
public enum RpcStatus {
    /** No answer within the call's timeout. Local; Dubbo's SERVER_TIMEOUT (31). */
    TIMEOUT(31),
    /** The connection could not be made, or was lost before the answer came. Local; Dubbo's CHANNEL_INACTIVE (35). */
    NETWORK(35),
    /** A value could not be serialized or deserialized (including a class outside the allow-list). Wire 25. */
    SERIALIZATION(25),
    /** The provider could not read the request. Wire 40. */
    BAD_REQUEST(40),
    /** The provider could not write its response. Wire 50. */
    BAD_RESPONSE(50),
    /**
     * No exported service matches the interface, version and group. Sent as Dubbo sends it: SERVICE_ERROR (70)
     * with a message starting {@value #SERVICE_NOT_FOUND_PREFIX}.
     */
    SERVICE_NOT_FOUND(70),
    /** The service exists but has no method with that name and parameter types. Sent as 40, see {@link #fromWire}. */
    METHOD_NOT_FOUND(40),
    /** The provider failed before it could produce a result. Wire 70. */
    SERVICE_ERROR(70),
    /** The provider failed in its dispatcher. Wire 80. */
    SERVER_ERROR(80),
    /** The consumer could not read the response. Local; Dubbo's CLIENT_ERROR (90). */
    CLIENT_ERROR(90),
    /**
     * The provider refused the call unrun: it was sent without the provider's token, or with another (Dubbo's
     * {@code token}). Sent as Dubbo's token check sends it: SERVICE_ERROR (70) with a message starting
     * {@value #INVALID_TOKEN_PREFIX}.
     */
    FORBIDDEN(70),
    /** The provider's business thread pool is full; the call did not run. Wire 100. */
    THREADPOOL_EXHAUSTED(100),
    /**
     * The provider is shutting down and did not run the call: try another provider. Sent as SERVER_ERROR (80) with
     * a message starting {@value #SHUTTING_DOWN_PREFIX}; a Dubbo consumer fails over on it like on any error.
     */
    SHUTTING_DOWN(80),
    /**
     * A concurrency limit refused the call unrun: the reference's {@code actives} (local) or the service's
     * {@code executes} (sent as 100 with a message starting {@value #LIMIT_EXCEEDED_PREFIX}).
     */
    LIMIT_EXCEEDED(100),
    /** A request or response is larger than the payload limit. Local on the consumer; a provider sends 25. */
    PAYLOAD_TOO_LARGE(25),
    /**
     * Every connection to the provider stayed unwritable (its outbound buffer above the high water mark: the provider
     * is not reading) for as long as the call could wait; the call was not sent. Local; Dubbo's CHANNEL_INACTIVE
     * (35), the byte it uses when it cannot send.
     */
    CONGESTED(35),
    /** No provider of the service is known, or every one was tried. Local; sent as CHANNEL_INACTIVE (35). */
    NO_PROVIDER(35),
    /** The call was refused before it reached the wire (a sync call on an IO thread, a closed reference, ...). */
    ILLEGAL_STATE(90),
    /** A status byte this version of Ferry does not know. */
    UNKNOWN(0);

    /** The message prefix with which a provider reports {@link #METHOD_NOT_FOUND} inside a BAD_REQUEST (40) answer. */
    public static final String METHOD_NOT_FOUND_PREFIX = "Method not found: ";
    /** The message prefix of a missing service in a SERVICE_ERROR (70) answer, Dubbo's own wording. */
    public static final String SERVICE_NOT_FOUND_PREFIX = "Not found exported service: ";
    /** How a Dubbo 3 provider answers (status 70) a generic call of a method its service does not have. */
    private static final String DUBBO_NO_SUCH_METHOD = "org.apache.dubbo.rpc.RpcException: No such method ";
    /** The message prefix of a call refused unrun by a provider that is shutting down (status 80). */
    public static final String SHUTTING_DOWN_PREFIX = "Provider is shutting down, request not executed: ";

    /**
     * The message prefix of a request a provider dropped unrun because its caller's deadline had passed before it
     * could run (status 31, SERVER_TIMEOUT).
     */
    public static final String EXPIRED_PREFIX = "Request expired on the provider, not executed: ";

    /** The message prefix of an answer a provider could not send because it was over the payload limit (25). */
    public static final String PAYLOAD_TOO_LARGE_PREFIX = "Payload too large: ";

    /**
     * The message prefix of a call a provider refused unrun for a missing or wrong token (status 70), Dubbo's own
     * wording. A Dubbo provider sends it after its exception's class name ({@code org.apache.dubbo.rpc.RpcException:
     * Invalid token! ...}); either form reads as {@link #FORBIDDEN}.
     */
    public static final String INVALID_TOKEN_PREFIX = "Invalid token! Forbid invoke remote service ";

    /**
     * The message prefix of a call a provider refused unrun because the caller's certificate identity is not among
     * the method's {@code callers} (status 70, read as {@link #FORBIDDEN}).
     */
    public static final String CALLER_REFUSED_PREFIX = "Caller not allowed, not executed: ";

    /** The message prefix of a call a provider refused unrun for its {@code executes} limit (status 100). */
    public static final String LIMIT_EXCEEDED_PREFIX = "Concurrency limit exceeded, not executed: ";

    private final byte wireCode;

    RpcStatus(int wireCode) {
        this.wireCode = (byte) wireCode;
    }

    /**
     * The Dubbo 2 status byte this status is sent as. Several statuses share a byte and are told apart by the
     * message ({@link #fromWire}); statuses that only arise locally carry the byte Dubbo uses for the situation.
     */
    public byte wireCode() {
        return wireCode;
    }

    /**
     * Maps a status byte from an error answer (status other than OK) to a status. The message tells a missing method
     * apart from other bad requests, since the Dubbo protocol has no status byte of its own for it.
     */
    public static RpcStatus fromWire(byte code, String message) {
        switch (code) {
            case 25:
                return message != null && (message.startsWith(PAYLOAD_TOO_LARGE_PREFIX)
                        || message.contains("Data length too large")) ? PAYLOAD_TOO_LARGE : SERIALIZATION;
            case 30:
            case 31: return TIMEOUT;
            case 35: return NETWORK;
            case 40:
                return message != null && message.startsWith(METHOD_NOT_FOUND_PREFIX) ? METHOD_NOT_FOUND : BAD_REQUEST;
            case 50:
                // Dubbo reports an answer over its payload limit as a failure to send the response
                return message != null && message.contains("Data length too large") ? PAYLOAD_TOO_LARGE
                        : BAD_RESPONSE;
            case 60: return SERVICE_NOT_FOUND;
            case 70:
                if (message != null && message.startsWith(SERVICE_NOT_FOUND_PREFIX)) {
                    return SERVICE_NOT_FOUND;
                }
                if (message != null && message.startsWith(DUBBO_NO_SUCH_METHOD)) {
                    return METHOD_NOT_FOUND; // a Dubbo provider's answer to a generic call of a missing method
                }
                return isInvalidToken(message) || (message != null && message.startsWith(CALLER_REFUSED_PREFIX))
                        ? FORBIDDEN : SERVICE_ERROR;
            case 80:
                return message != null && message.startsWith(SHUTTING_DOWN_PREFIX) ? SHUTTING_DOWN : SERVER_ERROR;
            case 90: return CLIENT_ERROR;
            case 100:
                return message != null && message.startsWith(LIMIT_EXCEEDED_PREFIX) ? LIMIT_EXCEEDED
                        : THREADPOOL_EXHAUSTED;
            default: return UNKNOWN;
        }
    }

    /** Ferry's wording, or Dubbo's: the same after the exception's class name ({@code a.b.RpcException: }). */
    private static boolean isInvalidToken(String message) {
        if (message == null) {
            return false;
        }
        int colon = message.indexOf(": ");
        return message.startsWith(INVALID_TOKEN_PREFIX) || (colon > 0 && message.indexOf(' ') > colon
                && message.startsWith(INVALID_TOKEN_PREFIX, colon + 2));
    }
}
