package io.ferry.rpc.remoting;

import static io.ferry.rpc.remoting.ClientExtension.hello;
import io.ferry.rpc.Result;
import io.ferry.rpc.RpcException;
import io.ferry.rpc.RpcStatus;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Liveness over real sockets on 127.0.0.1: blackholes, half-open connections, limits, reconnection. */
class LivenessTest {
    @RegisterExtension
    final ClientExtension clients = new ClientExtension();
    private Server server;

    @BeforeEach
    void start() {
        server = startServer(0, 0);
    }

    @AfterEach
    void stop() {
        server.close();
    }

    private static Server startServer(int port, int accepts) {
        Server server = Server.start(ServerOptions.builder().host("127.0.0.1").port(port).accepts(accepts).build());
        server.export(ServiceExport.of(Greeter.class,
                invocation -> CompletableFuture.completedFuture(Result.of("hello " + invocation.arguments()[0]))));
        return server;
    }

    @Test
    void aBlackholedConnectionIsDetectedAndReplaced() throws Exception {
        try (TcpProxy proxy = new TcpProxy(server.address());
             ProviderEndpoint client = clients.direct(proxy.address(), ClientOptions.builder().connections(1)
                     .heartbeat(Duration.ofMillis(200)).build())) {
            assertEquals("hello 1", client.invoke(hello("1", 2000)).get(5, TimeUnit.SECONDS).value());
            proxy.blackholeExisting();
            // calls sent into the hole time out; within 3 silent heartbeat intervals the connection is replaced
            Object answer = await("a call answered over a new connection").atMost(Duration.ofSeconds(10))
                    .until(() -> answerOrNull(client, "2"), Objects::nonNull);
            assertEquals("hello 2", answer);
            assertTrue(proxy.accepted.get() >= 2, "a new connection replaced the blackholed one");
        }
    }

    @Test
    void aCallTimingOutIntoABlackholeReplacesTheConnectionLongBeforeThreeHeartbeatIntervals() throws Exception {
        try (TcpProxy proxy = new TcpProxy(server.address());
             ProviderEndpoint client = clients.direct(proxy.address(), ClientOptions.builder().connections(1)
                     .connectTimeout(Duration.ofMillis(500)).build())) { // heartbeat: the default 60 s
            assertEquals("hello 1", client.invoke(hello("1", 2000)).get(5, TimeUnit.SECONDS).value());
            proxy.blackholeExisting();
            ExecutionException timedOut = assertThrows(ExecutionException.class,
                    () -> client.invoke(hello("lost", 300)).get(5, TimeUnit.SECONDS));
            assertEquals(RpcStatus.TIMEOUT, ((RpcException) timedOut.getCause()).status());
            // nothing read since it was sent: a ping, unanswered for 500 ms, and a new connection (not 180 s)
            Object answer = await("a call answered over a new connection").atMost(Duration.ofSeconds(10))
                    .until(() -> answerOrNull(client, "2"), Objects::nonNull);
            assertEquals("hello 2", answer);
            assertTrue(proxy.accepted.get() >= 2, "a new connection replaced the blackholed one");
        }
    }

    /** The answer to a short call, or null when it failed for a reason of the framework's (a dead connection). */
    private static Object answerOrNull(ProviderEndpoint client, String name) throws Exception {
        try {
            return client.invoke(hello(name, 300)).get(5, TimeUnit.SECONDS).value();
        } catch (ExecutionException e) {
            assertTrue(e.getCause() instanceof RpcException, e.toString());
            return null;
        }
    }

    @Test
    void aHalfOpenConnectionNeverCarriesACall() throws Exception {
        // the kernel completes the handshake into the accept queue, but nobody ever accepts
        try (ServerSocket neverAccepts = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
             ProviderEndpoint client = clients.direct(
                     new InetSocketAddress(InetAddress.getLoopbackAddress(), neverAccepts.getLocalPort()),
                     ClientOptions.builder().connections(1).connectTimeout(Duration.ofMillis(300)).build())) {
            ExecutionException e = assertThrows(ExecutionException.class,
                    () -> client.invoke(hello("x", 1000)).get(10, TimeUnit.SECONDS));
            RpcException rpc = (RpcException) e.getCause();
            assertTrue(rpc.isNotExecuted(), "provably not run: safe to move to another provider");
            // the first attempt got a half-open connection whose readiness ping went unanswered; later ones may not
            // even complete the handshake, the accept queue being full
            assertTrue(rpc.getMessage().contains("no connection"), rpc.getMessage());
            assertEquals(0, client.openConnections());
        }
    }

    @Test
    void connectionsOverTheAcceptsLimitAreClosed() throws Exception {
        server.close();
        server = startServer(0, 1);
        try (ProviderEndpoint first = clients.direct(server.address(), ClientOptions.builder().connections(1)
                .build())) {
            first.whenReady().get(5, TimeUnit.SECONDS);
            try (Socket second = new Socket(server.address().getAddress(), server.address().getPort())) {
                second.setSoTimeout(5000);
                assertEquals(-1, second.getInputStream().read(), "the second connection is closed by the provider");
            }
            assertEquals("hello a", first.invoke(hello("a", 2000)).get(5, TimeUnit.SECONDS).value());
            assertEquals(1, server.connections());
        }
    }

    @Test
    void aSpreadFirstConnectIsStartedAtOnceByACallThatNeedsIt() throws Exception {
        // a first connect spread over an hour: a call that waited for it would run out its 10 s deadline first
        try (ProviderEndpoint client = clients.member(server.address(), ClientOptions.builder().connections(1)
                .build(), Duration.ofHours(1))) {
            assertEquals(0, client.openConnections(), "waiting out its random delay");
            assertEquals("hello now", client.invoke(hello("now", 10_000)).get(15, TimeUnit.SECONDS)
                    .value());
        }
    }

    @Test
    void afterAProviderRestartTheConnectionComesBackWithoutACall() throws Exception {
        try (ProviderEndpoint client = clients.direct(server.address(), ClientOptions.builder().connections(1)
                .reconnectBackoff(Duration.ofMillis(50), Duration.ofMillis(400)).build())) {
            client.whenReady().get(5, TimeUnit.SECONDS);
            int port = server.port();
            server.close();
            server = startServer(port, 0);
            // no call is made, nor asked to connect: the slot reconnects in the background, with jittered back-off
            await("the connection back").atMost(Duration.ofSeconds(10)).until(() -> client.openConnections() > 0);
            assertEquals(1, client.openConnections());
            assertEquals("hello back", client.invoke(hello("back", 2000)).get(5, TimeUnit.SECONDS)
                    .value());
        }
    }

    @Test
    void aProviderAnnouncedAgainIsReconnectedAtOnceRatherThanAfterTheBackoff() throws Exception {
        try (ProviderEndpoint client = clients.member(server.address(), ClientOptions.builder().connections(1)
                .reconnectBackoff(Duration.ofMinutes(10), Duration.ofMinutes(20)).build(), Duration.ZERO)) {
            client.whenReady().get(5, TimeUnit.SECONDS);
            int port = server.port();
            server.close();
            server = startServer(port, 0);
            // the lost connection's next attempt waits a random time of up to 10 minutes; the registry's
            // announcement cuts that short: ready within 10 s, which the back-off alone would rarely allow
            client.reconnectSoon(Duration.ZERO);
            client.whenReady().get(10, TimeUnit.SECONDS);
            assertEquals(1, client.openConnections());
        }
    }

}
