package io.ferry.rpc;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The Dubbo 2 status byte each status travels as, and back: several statuses share a byte and are told apart by
 * the message prefix the provider sends, as Dubbo words it.
 */
class RpcStatusTest {

    @ParameterizedTest
    @EnumSource(value = RpcStatus.class, names = {"SERIALIZATION", "BAD_REQUEST", "BAD_RESPONSE", "SERVICE_ERROR",
            "SERVER_ERROR", "THREADPOOL_EXHAUSTED", "TIMEOUT", "NETWORK", "CLIENT_ERROR"})
    void aStatusSentWithAPlainMessageComesBackAsItself(RpcStatus status) {
        assertEquals(status, RpcStatus.fromWire(status.wireCode(), "boom"));
        assertEquals(status, RpcStatus.fromWire(status.wireCode(), null), "a missing message is a plain one");
    }

    @Test
    void aSharedByteIsToldApartByTheMessagePrefix() {
        assertEquals(RpcStatus.METHOD_NOT_FOUND,
                RpcStatus.fromWire((byte) 40, RpcStatus.METHOD_NOT_FOUND_PREFIX + "hello(java.lang.String)"));
        assertEquals(RpcStatus.SERVICE_NOT_FOUND,
                RpcStatus.fromWire((byte) 70, RpcStatus.SERVICE_NOT_FOUND_PREFIX + "io.ferry.Echo"));
        assertEquals(RpcStatus.SHUTTING_DOWN, RpcStatus.fromWire((byte) 80, RpcStatus.SHUTTING_DOWN_PREFIX + "x"));
        assertEquals(RpcStatus.LIMIT_EXCEEDED, RpcStatus.fromWire((byte) 100, RpcStatus.LIMIT_EXCEEDED_PREFIX + "x"));
        assertEquals(RpcStatus.PAYLOAD_TOO_LARGE,
                RpcStatus.fromWire((byte) 25, RpcStatus.PAYLOAD_TOO_LARGE_PREFIX + "9 MB"));
    }

    @ParameterizedTest
    @EnumSource(value = RpcStatus.class, names = {"METHOD_NOT_FOUND", "SERVICE_NOT_FOUND", "SHUTTING_DOWN",
            "LIMIT_EXCEEDED", "PAYLOAD_TOO_LARGE", "FORBIDDEN"})
    void aStatusToldByItsPrefixIsSentAsTheByteThePrefixIsReadUnder(RpcStatus status) {
        String prefix = switch (status) {
            case METHOD_NOT_FOUND -> RpcStatus.METHOD_NOT_FOUND_PREFIX;
            case SERVICE_NOT_FOUND -> RpcStatus.SERVICE_NOT_FOUND_PREFIX;
            case SHUTTING_DOWN -> RpcStatus.SHUTTING_DOWN_PREFIX;
            case LIMIT_EXCEEDED -> RpcStatus.LIMIT_EXCEEDED_PREFIX;
            case FORBIDDEN -> RpcStatus.INVALID_TOKEN_PREFIX;
            default -> RpcStatus.PAYLOAD_TOO_LARGE_PREFIX;
        };
        assertEquals(status, RpcStatus.fromWire(status.wireCode(), prefix + "detail"));
    }

    @Test
    void dubbosOwnWordingIsUnderstood() {
        assertEquals(RpcStatus.PAYLOAD_TOO_LARGE, RpcStatus.fromWire((byte) 25, "Data length too large: 9000000"));
        assertEquals(RpcStatus.PAYLOAD_TOO_LARGE, RpcStatus.fromWire((byte) 50, "Data length too large: 9000000"),
                "Dubbo reports an answer over its limit as a response it could not send");
        assertEquals(RpcStatus.TIMEOUT, RpcStatus.fromWire((byte) 30, "client side timeout"));
        assertEquals(RpcStatus.SERVICE_NOT_FOUND, RpcStatus.fromWire((byte) 60, null));
        // measured from Dubbo 3.3.6's token check: the exception's toString, then its stack
        assertEquals(RpcStatus.FORBIDDEN, RpcStatus.fromWire((byte) 70, "org.apache.dubbo.rpc.RpcException: "
                + "Invalid token! Forbid invoke remote service interface a.B method c() from consumer 127.0.0.1 to "
                + "provider 127.0.0.1, consumer incorrect token is null\n\tat org.apache.dubbo.rpc.filter..."));
        assertEquals(RpcStatus.SERVICE_ERROR,
                RpcStatus.fromWire((byte) 70, "it says: " + RpcStatus.INVALID_TOKEN_PREFIX),
                "only a class name may stand before Dubbo's wording");
    }


    @Test
    void aByteThisVersionDoesNotKnowIsUnknown() {
        assertEquals(RpcStatus.UNKNOWN, RpcStatus.fromWire((byte) 99, "?"));
        assertEquals(RpcStatus.UNKNOWN, RpcStatus.fromWire((byte) 20, "OK is not an error status"));
    }
}
