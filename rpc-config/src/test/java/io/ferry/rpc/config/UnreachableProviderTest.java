package io.ferry.rpc.config;

import io.ferry.rpc.RpcException;
import io.ferry.rpc.RpcStatus;
import io.ferry.rpc.config.fixtures.UserService;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A provider that refuses connections, or never answers: calls say so at once, and one-way calls never wait. */
class UnreachableProviderTest {
    private final Ferry consumer = Ferry.builder().shutdownHook(false).build();

    @AfterEach
    void close() {
        consumer.close();
    }

    private static int refusingPort() throws Exception {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort(); // closed at once: connects are refused
        }
    }

    @Test
    void callsToAProviderThatRefusesConnectionsFailAtOnceNamingItAndWhy() throws Exception {
        int port = refusingPort();
        // an hour: a call that waited for its timeout would end TIMEOUT, and only after the test's own timeout
        Duration timeout = Duration.ofHours(1);
        UserService users = consumer.reference(ReferenceConfig.builder(UserService.class)
                .url("dubbo://127.0.0.1:" + port).timeout(timeout).check(false).build());
        for (int i = 0; i < 3; i++) {
            long start = System.nanoTime();
            RpcException e = assertThrows(RpcException.class, () -> users.hello("x"));
            long took = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            assertEquals(RpcStatus.NETWORK, e.status(), e.toString());
            assertTrue(e.isNotExecuted());
            assertTrue(e.getMessage().contains("127.0.0.1:" + port), e.getMessage());
            // NETWORK, not TIMEOUT, and the bound is the timeout it would otherwise have waited out
            assertTrue(took < timeout.toMillis(), "failed after " + took + " ms, at its timeout");
        }
    }

    @Test
    void waitForReadyWaitsForAConnectionWithinTheDeadline() throws Exception {
        int port = refusingPort();
        UserService users = consumer.reference(ReferenceConfig.builder(UserService.class)
                .url("dubbo://127.0.0.1:" + port).timeout(Duration.ofMillis(400)).waitForReady(true).check(false).build());
        long start = System.nanoTime();
        RpcException e = assertThrows(RpcException.class, () -> users.hello("x"));
        assertEquals(RpcStatus.TIMEOUT, e.status(), e.toString());
        assertTrue(e.isNotExecuted());
        assertTrue(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start) >= 380, "waited for its deadline");
    }

    @Test
    void aOneWayCallNeverWaitsForATimeout() throws Exception {
        // the kernel accepts into a queue nobody takes from: no readiness ping is ever answered
        try (ServerSocket neverAccepts = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            UserService users = consumer.reference(ReferenceConfig.builder(UserService.class)
                    .url("dubbo://127.0.0.1:" + neverAccepts.getLocalPort()).timeout(Duration.ofHours(1))
                    .check(false).build());
            long start = System.nanoTime();
            users.record("nobody listens");
            long took = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            // the bound is the hour a waiting call would have run out (the connection is never ready); a call
            // that waited would first meet the test's own timeout
            assertTrue(took < Duration.ofHours(1).toMillis(), "returned after " + took + " ms, at its timeout");
        }
    }

    @Test
    void withCheckCreatingAReferenceToAProviderThatIsDownFailsAtOnceNamingItAndWhy() throws Exception {
        int port = refusingPort();
        // a connect timeout of an hour: a refusal is certain at once, so the check must not wait for it (one that
        // waited would first meet the test's own timeout)
        Duration connectTimeout = Duration.ofHours(1);
        try (Ferry quick = Ferry.builder().consumer(ConsumerConfig.builder().connectTimeout(connectTimeout)
                .build()).shutdownHook(false).build()) {
            long start = System.nanoTime();
            RpcException e = assertThrows(RpcException.class, () -> quick.reference(
                    ReferenceConfig.builder(UserService.class).url("dubbo://127.0.0.1:" + port).build()));
            long took = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            assertEquals(RpcStatus.NO_PROVIDER, e.status());
            assertTrue(e.getMessage().contains("refused at once by every provider: 127.0.0.1:" + port)
                    && e.getMessage().contains("connection refused"), e.getMessage());
            assertTrue(e.getMessage().contains("check(false)"), "says how to do without: " + e.getMessage());
            // the bound is the connect timeout it would otherwise have waited out
            assertTrue(took < connectTimeout.toMillis(), "failed after " + took + " ms, at its connect timeout");
        }
    }
}
