package io.ferry.rpc.config.internal.observation;

import io.ferry.rpc.Deadline;
import io.ferry.rpc.Invocation;
import io.ferry.rpc.ProviderRefusal;
import io.ferry.rpc.RpcException;
import io.ferry.rpc.RpcStatus;
import io.ferry.rpc.config.fixtures.UserService;
import io.ferry.rpc.config.observation.RpcObservations;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import java.util.HashMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

/** Which timer a call's outcome lands in: one per status, and per exception class, found again without building ids. */
class CallTimersTest {
    private final SimpleMeterRegistry meters = new SimpleMeterRegistry();
    private final CallTimers timers = CallTimers.server(meters);
    private final Invocation call = new Invocation(UserService.class.getName(), "", "",
            UserService.class.getMethods()[0], new Object[0], new HashMap<>(), Deadline.none(), false, null);

    @Test
    void aRefusalAndAServicesOwnRpcExceptionOfTheSameStatusAreTaggedApart() {
        Timer refused = timers.timer(call, new ProviderRefusal(RpcStatus.TIMEOUT, "expired before it ran"));
        Timer thrown = timers.timer(call, new RpcException(RpcStatus.TIMEOUT, "its own call timed out"));

        assertNotSame(refused, thrown);
        assertEquals("ProviderRefusal", refused.getId().getTag("error"));
        assertEquals("RpcException", thrown.getId().getTag("error"));
        assertEquals("TIMEOUT", refused.getId().getTag(RpcObservations.STATUS));
        assertEquals("TIMEOUT", thrown.getId().getTag(RpcObservations.STATUS));
        // and each found again, whichever came first
        assertSame(thrown, timers.timer(call, new RpcException(RpcStatus.TIMEOUT, "again")));
        assertSame(refused, timers.timer(call, new ProviderRefusal(RpcStatus.TIMEOUT, "again")));
        assertNotSame(refused, timers.timer(call, new ProviderRefusal(RpcStatus.FORBIDDEN, "not this caller")));
    }

    @Test
    void aServicesOwnExceptionIsTaggedExceptionWithItsClass() {
        Timer failed = timers.timer(call, new IllegalStateException("bug"));

        assertEquals(RpcObservations.EXCEPTION, failed.getId().getTag(RpcObservations.STATUS));
        assertEquals("IllegalStateException", failed.getId().getTag("error"));
        assertEquals("none", timers.timer(call, null).getId().getTag("error"));
    }
}
