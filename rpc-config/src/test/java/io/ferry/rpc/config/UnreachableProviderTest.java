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
        UserService users = consumer.reference(ReferenceConfig.builder(UserService.class)
                .url("dubbo://127.0.0.1:" + port).timeout(Duration.ofSeconds(5)).check(false).build());
        for (int i = 0; i < 3; i++) {
            long start = System.nanoTime();
            RpcException e = assertThrows(RpcException.class, () -> users.hello("x"));
            long took = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            assertEquals(RpcStatus.NETWORK, e.status(), e.toString());
            assertTrue(e.isNotExecuted());
            assertTrue(e.getMessage().contains("127.0.0.1:" + port), e.getMessage());
            // NETWORK, not TIMEOUT, and the bound is the 5 s timeout it would otherwise have waited out
            assertTrue(took < 5000, "failed after " + took + " ms, at its 5 s timeout");
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
                    .url("dubbo://127.0.0.1:" + neverAccepts.getLocalPort()).timeout(Duration.ofSeconds(10))
                    .check(false).build());
            long start = System.nanoTime();
            users.record("nobody listens");
            long took = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            // the bound is the 10 s timeout a waiting call would have run out: the connection is never ready
            assertTrue(took < 10_000, "returned after " + took + " ms, at its 10 s timeout");
        }
    }

    @Test
    void withCheckCreatingAReferenceToAProviderThatIsDownFailsAtOnceNamingItAndWhy() throws Exception {
        int port = refusingPort();
        // a connect timeout of 30 s: a refusal is certain at once, so the check must not wait for it
        Duration connectTimeout = Duration.ofSeconds(30);
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
            // the bound is the connect timeout it would otherwise have waited out, halved for a slow machine
            assertTrue(took < connectTimeout.toMillis() / 2, "failed after " + took + " ms, near its connect"
                    + " timeout of " + connectTimeout.toMillis() + " ms");
        }
    }
}
