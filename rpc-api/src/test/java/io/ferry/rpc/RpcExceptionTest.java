package io.ferry.rpc;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.IOException;
import java.util.EnumSet;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Whether a failed call may be tried on another provider, and how the failure reads. */
class RpcExceptionTest {
    /** The statuses with which a provider refuses a call before running it. */
    private static final Set<RpcStatus> REFUSED_UNRUN = EnumSet.of(RpcStatus.THREADPOOL_EXHAUSTED,
            RpcStatus.SHUTTING_DOWN, RpcStatus.SERVICE_NOT_FOUND, RpcStatus.LIMIT_EXCEEDED, RpcStatus.FORBIDDEN);

    @ParameterizedTest
    @EnumSource(RpcStatus.class)
    void onlyARefusalIsKnownNotToHaveRunByItsStatusAlone(RpcStatus status) {
        assertEquals(REFUSED_UNRUN.contains(status), new RpcException(status, "m").isNotExecuted(), status.name());
    }

    @Test
    void theCallerCanSayItDidNotRunWhateverTheStatus() {
        RpcException e = RpcException.notExecuted(RpcStatus.NETWORK, "connect refused", null);
        assertTrue(e.isNotExecuted(), "a failed connect never reached the provider");
        assertFalse(new RpcException(RpcStatus.NETWORK, "connection lost").isNotExecuted(),
                "a lost connection may have run the call");
    }

    @Test
    void theCallerCanSayItMayHaveRunWhateverTheStatus() {
        RpcException e = RpcException.mayHaveRun(RpcStatus.THREADPOOL_EXHAUSTED, "last of three providers", null);
        assertFalse(e.isNotExecuted(), "an earlier attempt may have run it");
        assertEquals(RpcStatus.THREADPOOL_EXHAUSTED, e.status());
    }

    @Test
    void theStatusLeadsTheMessage() {
        RpcException e = new RpcException(RpcStatus.TIMEOUT, "no answer within 1000 ms");
        assertEquals("no answer within 1000 ms", e.getMessage());
        assertEquals("io.ferry.rpc.RpcException: TIMEOUT: no answer within 1000 ms", e.toString());
    }

    @Test
    void rethrownHereKeepsEverythingButTheStackAndRemembersTheOriginal() {
        IOException cause = new IOException("reset");
        RpcException onTimer = failOnATimer(cause);
        RpcException here = onTimer.rethrownHere();

        assertNotSame(onTimer, here);
        assertEquals(RpcStatus.NETWORK, here.status());
        assertEquals("write failed", here.getMessage());
        assertSame(cause, here.getCause());
        assertTrue(here.isNotExecuted());
        assertArrayEquals(new Throwable[] {onTimer}, here.getSuppressed(), "the original, with where it failed");
        assertTrue(ranThrough(onTimer, "failOnATimer"));
        assertFalse(ranThrough(here, "failOnATimer"), "the copy's trace is the caller's");
        assertTrue(ranThrough(here, "rethrownHereKeepsEverythingButTheStackAndRemembersTheOriginal"));
    }

    /** Stands for a timer or IO thread: a frame the caller's stack does not have. */
    private static RpcException failOnATimer(Throwable cause) {
        return RpcException.notExecuted(RpcStatus.NETWORK, "write failed", cause);
    }

    private static boolean ranThrough(Throwable t, String methodName) {
        for (StackTraceElement frame : t.getStackTrace()) {
            if (frame.getMethodName().equals(methodName)) {
                return true;
            }
        }
        return false;
    }
}
