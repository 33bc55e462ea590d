package io.ferry.rpc.remoting;

import static io.ferry.rpc.remoting.ClientExtension.call;
import static io.ferry.rpc.remoting.ClientExtension.hello;
import io.ferry.rpc.Invocation;
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
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** How consumers hold connections, and how calls end when the provider misbehaves. Real sockets on 127.0.0.1. */
class ClientConnectionTest {
    @RegisterExtension
    final ClientExtension clients = new ClientExtension();
    private Server server;

    @BeforeEach
    void start() {
        server = startServer(0, "hello ");
    }

    private static Server startServer(int port, String greeting) {
        Server server = Server.start(ServerOptions.builder().host("127.0.0.1").port(port).build());
        server.export(ServiceExport.of(Greeter.class,
                invocation -> CompletableFuture.completedFuture(Result.of(greeting + invocation.arguments()[0]))));
        return server;
    }

    @AfterEach
    void stop() {
        server.close();
    }

    /** Every connection counted here has carried a call, so the server registered it before answering. */
    private void assertServerConnections(int expected) {
        assertEquals(expected, server.connections());
    }

    @Test
    void endpointsWithoutConnectionsShareOneConnectionPerAddress() throws Exception {
        ProviderEndpoint a = clients.direct(server.address(), ClientOptions.defaults());
        ProviderEndpoint b = clients.direct(server.address(), ClientOptions.defaults());
        assertEquals("hello a", call(a, "a"));
        assertEquals("hello b", call(b, "b"));
        assertServerConnections(1);
    }

    @Test
    void endpointsWhoseConnectionsAreShapedDifferentlyDoNotShareOne() throws Exception {
        ProviderEndpoint a = clients.direct(server.address(), ClientOptions.defaults());
        ProviderEndpoint b = clients.direct(server.address(), ClientOptions.builder()
                .heartbeat(Duration.ofSeconds(5)).build());
        assertEquals("hello a", call(a, "a"));
        assertEquals("hello b", call(b, "b"));
        assertServerConnections(2);
    }

    @Test
    void twoClientsInOneProcessHaveTheirOwnConnectionsAndThreads() throws Exception {
        ClientExtension other = new ClientExtension();
        try {
            ProviderEndpoint a = clients.direct(server.address(), ClientOptions.defaults());
            ProviderEndpoint b = other.direct(server.address(), ClientOptions.defaults());
            assertEquals("hello a", call(a, "a"));
            assertEquals("hello b", call(b, "b"));
            assertServerConnections(2);
            assertNotSame(clients.client(), other.client());
            Set<Thread> threadsOfA = a.ioThreads();
            assertTrue(b.ioThreads().stream().noneMatch(threadsOfA::contains), "no IO thread in common");
        } finally {
            other.afterEach(null);
        }
        assertTrue(!clients.client().isShutdown(), "closing one client leaves the other running");
    }

    @Test
    void connectionsGiveAnEndpointItsOwnConnectionsOnDistinctIoThreads() throws Exception {
        ProviderEndpoint shared = clients.direct(server.address(), ClientOptions.defaults());
        ProviderEndpoint own = clients.direct(server.address(), ClientOptions.builder().connections(3).build());
        call(shared, "warm up");
        for (int i = 0; i < 6; i++) {
            assertEquals("hello " + i, call(own, "" + i));
        }
        assertEquals(3, own.openConnections());
        assertEquals(3, own.ioThreads().size(), "three connections, three IO threads");
        assertServerConnections(4);
    }

    @Test
    void closingTheClientClosesItsSharedConnectionsAndThreads() throws Exception {
        ProviderEndpoint endpoint = clients.direct(server.address(), ClientOptions.defaults());
        assertEquals("hello a", call(endpoint, "a"));
        Client client = clients.client();
        clients.afterEach(null);
        assertTrue(client.isShutdown());
        ExecutionException closed = assertThrows(ExecutionException.class,
                () -> endpoint.invoke(hello("late", 2000)).get(10, TimeUnit.SECONDS));
        assertTrue(((RpcException) closed.getCause()).isNotExecuted());
    }

    @Test
    void lazyClientOpensNoConnectionBeforeItsFirstCall() throws Exception {
        try (ProviderEndpoint lazy = clients.direct(server.address(),
                ClientOptions.builder().connections(1).lazy(true).build())) {
            assertEquals(0, lazy.openConnections());
            assertEquals("hello lazy", call(lazy, "lazy"));
            assertEquals(1, lazy.openConnections());
        }
    }

    @Test
    void aLostConnectionIsReplacedOnTheNextCallAfterTheProviderRestarts() throws Exception {
        try (ProviderEndpoint client = clients.direct(server.address(),
                ClientOptions.builder().connections(1).build())) {
            assertEquals("hello 1", call(client, "1"));
            int port = server.port();
            server.close();
            // the only provider is down: the call waits for a connection within its deadline, then says why not
            ExecutionException down = assertThrows(ExecutionException.class,
                    () -> client.invoke(hello("down", 500)).get(10, TimeUnit.SECONDS));
            RpcException notRun = (RpcException) down.getCause();
            // the client learns of the close on its IO thread: a call made before that goes out on the closing
            // connection and fails NETWORK at once; one made after waits for a connection until its deadline
            if (notRun.status() == RpcStatus.NETWORK) {
                assertTrue(notRun.getMessage().contains("cannot send") || notRun.getMessage().contains("closed"),
                        notRun.getMessage());
            } else {
                assertEquals(RpcStatus.TIMEOUT, notRun.status());
                assertTrue(notRun.isNotExecuted());
                assertTrue(notRun.getMessage().contains("no connection"), notRun.getMessage());
            }
            server = startServer(port, "back ");
            assertEquals("back 2", call(client, "2"));
        }
    }

    @Test
    void afterARestartAWaitingCallFindsTheProviderWithinTheMinimumBackoffNotTheCurrentOne() throws Exception {
        ProviderEndpoint client = clients.direct(server.address(), ClientOptions.builder().connections(1)
                .reconnectBackoff(Duration.ofMillis(100), Duration.ofSeconds(5)).build());
        assertEquals("hello 1", call(client, "1"));
        int port = server.port();
        server.close();
        // calls while the provider is down: each refused connect doubles the back-off toward its 5 s cap
        for (int i = 0; i < 4; i++) {
            ExecutionException down = assertThrows(ExecutionException.class,
                    () -> client.invoke(hello("down", 300)).get(10, TimeUnit.SECONDS));
            RpcStatus status = ((RpcException) down.getCause()).status();
            // the first may go out on the closing connection before the client's IO thread has seen it close
            assertTrue(status == RpcStatus.TIMEOUT || i == 0 && status == RpcStatus.NETWORK, "call " + i + ": "
                    + down.getCause());
        }
        server = startServer(port, "back ");
        long start = System.nanoTime();
        assertEquals("back 2", client.invoke(hello("2", 3000)).get(10, TimeUnit.SECONDS).value());
        long tookMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        assertTrue(tookMillis < 1000, "found the restarted provider after " + tookMillis
                + " ms: the waiting call pulled the attempt forward instead of waiting out a back-off of seconds");
    }

    /**
     * A provider that answers the readiness ping like any Dubbo provider, then, at the first real request, either
     * closes the connection or stays silent.
     */
    private static final class MisbehavingProvider implements AutoCloseable {
        final ServerSocket socket;
        final CountDownLatch requestRead = new CountDownLatch(1);
        final Thread thread;

        MisbehavingProvider(boolean closeAfterRequest) throws Exception {
            socket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
            thread = new Thread(() -> {
                try (Socket s = socket.accept()) {
                    java.io.DataInputStream in = new java.io.DataInputStream(s.getInputStream());
                    while (true) {
                        byte[] header = new byte[16];
                        in.readFully(header);
                        byte[] body = new byte[java.nio.ByteBuffer.wrap(header, 12, 4).getInt()];
                        in.readFully(body);
                        if ((header[2] & 0x20) != 0) { // an event: answer it as a heartbeat
                            header[2] = 0x22;
                            header[3] = 20;
                            s.getOutputStream().write(header);
                            s.getOutputStream().write(body);
                            continue;
                        }
                        requestRead.countDown();
                        if (!closeAfterRequest) {
                            in.readAllBytes(); // silent until the client goes away
                        }
                        return;
                    }
                } catch (Exception ignored) {
                    // the test closed the socket
                }
            }, "misbehaving-provider");
            thread.setDaemon(true);
            thread.start();
        }

        InetSocketAddress address() {
            return new InetSocketAddress(InetAddress.getLoopbackAddress(), socket.getLocalPort());
        }

        @Override
        public void close() throws Exception {
            socket.close();
        }
    }

    @Test
    void providerClosingMidCallFailsThePendingCallAtOnceNotAtItsTimeout() throws Exception {
        try (MisbehavingProvider provider = new MisbehavingProvider(true);
             ProviderEndpoint client = clients.direct(provider.address(), ClientOptions.defaults())) {
            Invocation invocation = hello("x", 30_000);
            CompletableFuture<Result> call = client.invoke(invocation);
            ExecutionException e = assertThrows(ExecutionException.class, () -> call.get(20, TimeUnit.SECONDS));
            assertEquals(0, provider.requestRead.getCount(), "the request was sent: it failed mid-call");
            RpcException rpc = (RpcException) e.getCause();
            assertEquals(RpcStatus.NETWORK, rpc.status());
            assertTrue(!rpc.isNotExecuted(), "it may have run: not to be moved elsewhere");
            assertTrue(rpc.getMessage().contains("closed"), rpc.getMessage());
            assertTrue(rpc.getMessage().contains(String.valueOf(provider.address().getPort())), "names the peer");
            assertFalse(invocation.deadline().isExpired(), "ended by the close, not at its 30 s deadline");
        }
    }

    @Test
    void providerThatNeverAnswersEndsTheCallAtItsTimeout() throws Exception {
        try (MisbehavingProvider provider = new MisbehavingProvider(false);
             ProviderEndpoint client = clients.direct(provider.address(), ClientOptions.defaults())) {
            long start = System.nanoTime();
            CompletableFuture<Result> call = client.invoke(hello("x", 300));
            ExecutionException e = assertThrows(ExecutionException.class, () -> call.get(10, TimeUnit.SECONDS));
            long elapsed = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            assertEquals(0, provider.requestRead.getCount(), "the request was sent and never answered");
            assertEquals(RpcStatus.TIMEOUT, ((RpcException) e.getCause()).status());
            // not before its deadline; no upper bound on a shared machine: if the timeout never fired, get(10 s)
            // would have failed the test
            assertTrue(elapsed >= 290, "ended after " + elapsed + " ms");
        }
    }

    @Test
    void aRefusedConnectionEndsTheCallAtItsDeadlineSayingWhy() throws Exception {
        InetSocketAddress nobody;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            nobody = new InetSocketAddress(InetAddress.getLoopbackAddress(), s.getLocalPort());
        }
        try (ProviderEndpoint client = clients.direct(nobody, ClientOptions.defaults())) {
            long start = System.nanoTime();
            ExecutionException e = assertThrows(ExecutionException.class,
                    () -> client.invoke(hello("x", 700)).get(10, TimeUnit.SECONDS));
            RpcException rpc = (RpcException) e.getCause();
            assertEquals(RpcStatus.TIMEOUT, rpc.status());
            assertTrue(rpc.isNotExecuted());
            assertTrue(rpc.getMessage().contains("cannot connect"), rpc.getMessage());
            assertTrue(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start) >= 650, "waited for its deadline");
        }
    }
}
