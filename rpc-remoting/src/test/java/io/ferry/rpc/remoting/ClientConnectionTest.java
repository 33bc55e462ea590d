package io.ferry.rpc.remoting;

import io.ferry.rpc.RpcException;
import io.ferry.rpc.RpcStatus;
import io.ferry.rpc.remoting.internal.exchange.Reply;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** How consumers hold connections, and how calls end when the provider misbehaves. Real sockets on 127.0.0.1. */
class ClientConnectionTest {
    private static final ServiceSchema GREETER = ServiceSchema.of(Greeter.class, ClassAllowList.none());
    private Server server;

    @BeforeEach
    void start() {
        ServiceTable services = new ServiceTable();
        services.add(new ProviderService(GREETER, "", "",
                invocation -> CompletableFuture.completedFuture("hello " + invocation.arguments()[0])));
        server = Server.start(ServerOptions.builder().host("127.0.0.1").port(0).build(), services);
    }

    @AfterEach
    void stop() {
        server.close();
    }

    private static OutboundCall hello(String name, long timeoutMillis) throws Exception {
        return new OutboundCall(GREETER, GREETER.method(Greeter.class.getMethod("hello", String.class)), "0.0.0",
                new Object[] {name}, Map.of("path", Greeter.class.getName()),
                TimeUnit.MILLISECONDS.toNanos(timeoutMillis), false);
    }

    private static Object call(ProviderClient client, String name) throws Exception {
        return client.invoke(hello(name, 5000), Runnable::run).get(10, TimeUnit.SECONDS).value();
    }

    /** Every connection counted here has carried a call, so the server registered it before answering. */
    private void assertServerConnections(int expected) {
        assertEquals(expected, server.connections());
    }

    @Test
    void clientsWithoutConnectionsShareOneConnectionPerAddress() throws Exception {
        try (ProviderClient a = ProviderClient.open(server.address(), ClientOptions.defaults());
             ProviderClient b = ProviderClient.open(server.address(), ClientOptions.defaults())) {
            assertEquals("hello a", call(a, "a"));
            assertEquals("hello b", call(b, "b"));
            assertSame(a.transport(), b.transport());
            assertServerConnections(1);
        }
    }

    @Test
    void connectionsGiveAClientItsOwnConnectionsOnDistinctIoThreads() throws Exception {
        ClientTransport.configure(4);
        try (ProviderClient shared = ProviderClient.open(server.address(), ClientOptions.defaults());
             ProviderClient own = ProviderClient.open(server.address(),
                     ClientOptions.builder().connections(3).build())) {
            call(shared, "warm up");
            for (int i = 0; i < 6; i++) {
                assertEquals("hello " + i, call(own, "" + i));
            }
            assertEquals(3, own.openConnections());
            assertEquals(3, own.ioThreadsInUse().size(), "three connections, three IO threads");
            assertServerConnections(4);
        } finally {
            ClientTransport.configure(ServerOptions.defaultIoThreads());
        }
    }

    @Test
    void theSharedEventLoopGroupShutsDownWhenTheLastClientCloses() throws Exception {
        ProviderClient first = ProviderClient.open(server.address(), ClientOptions.defaults());
        ProviderClient second = ProviderClient.open(server.address(), ClientOptions.defaults());
        ClientTransport transport = first.transport();
        first.close();
        assertTrue(!transport.isShutdown(), "one client still uses it");
        second.close();
        assertTrue(transport.isShutdown());
        try (ProviderClient third = ProviderClient.open(server.address(), ClientOptions.defaults())) {
            assertNotSame(transport, third.transport());
            assertEquals("hello again", call(third, "again"));
        }
    }

    @Test
    void lazyClientOpensNoConnectionBeforeItsFirstCall() throws Exception {
        try (ProviderClient lazy = ProviderClient.open(server.address(),
                ClientOptions.builder().connections(1).lazy(true).build())) {
            assertEquals(0, lazy.openConnections());
            assertEquals("hello lazy", call(lazy, "lazy"));
            assertEquals(1, lazy.openConnections());
        }
    }

    @Test
    void aLostConnectionIsReplacedOnTheNextCallAfterTheProviderRestarts() throws Exception {
        try (ProviderClient client = ProviderClient.open(server.address(),
                ClientOptions.builder().connections(1).build())) {
            assertEquals("hello 1", call(client, "1"));
            int port = server.port();
            server.close();
            // the only provider is down: the call waits for a connection within its deadline, then says why not
            ExecutionException down = assertThrows(ExecutionException.class,
                    () -> client.invoke(hello("down", 500), Runnable::run).get(10, TimeUnit.SECONDS));
            RpcException notRun = (RpcException) down.getCause();
            assertEquals(RpcStatus.TIMEOUT, notRun.status());
            assertTrue(notRun.isNotExecuted());
            assertTrue(notRun.getMessage().contains("no connection"), notRun.getMessage());
            ServiceTable services = new ServiceTable();
            services.add(new ProviderService(GREETER, "", "",
                    invocation -> CompletableFuture.completedFuture("back " + invocation.arguments()[0])));
            server = Server.start(ServerOptions.builder().host("127.0.0.1").port(port).build(), services);
            assertEquals("back 2", call(client, "2"));
        }
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
             ProviderClient client = ProviderClient.open(provider.address(), ClientOptions.defaults())) {
            long start = System.nanoTime();
            CompletableFuture<Reply> call = client.invoke(hello("x", 30_000), Runnable::run);
            ExecutionException e = assertThrows(ExecutionException.class, () -> call.get(20, TimeUnit.SECONDS));
            assertEquals(0, provider.requestRead.getCount(), "the request was sent: it failed mid-call");
            RpcException rpc = (RpcException) e.getCause();
            assertEquals(RpcStatus.NETWORK, rpc.status());
            assertTrue(!rpc.isNotExecuted(), "it may have run: not to be moved elsewhere");
            assertTrue(rpc.getMessage().contains("closed"), rpc.getMessage());
            assertTrue(rpc.getMessage().contains(String.valueOf(provider.address().getPort())), "names the peer");
            assertTrue(TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start) < 10);
        }
    }

    @Test
    void providerThatNeverAnswersEndsTheCallAtItsTimeout() throws Exception {
        try (MisbehavingProvider provider = new MisbehavingProvider(false);
             ProviderClient client = ProviderClient.open(provider.address(), ClientOptions.defaults())) {
            long start = System.nanoTime();
            CompletableFuture<Reply> call = client.invoke(hello("x", 300), Runnable::run);
            ExecutionException e = assertThrows(ExecutionException.class, () -> call.get(10, TimeUnit.SECONDS));
            long elapsed = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            assertEquals(0, provider.requestRead.getCount(), "the request was sent and never answered");
            assertEquals(RpcStatus.TIMEOUT, ((RpcException) e.getCause()).status());
            assertTrue(elapsed >= 290 && elapsed < 3000, "ended after " + elapsed + " ms");
        }
    }

    @Test
    void aRefusedConnectionEndsTheCallAtItsDeadlineSayingWhy() throws Exception {
        InetSocketAddress nobody;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            nobody = new InetSocketAddress(InetAddress.getLoopbackAddress(), s.getLocalPort());
        }
        try (ProviderClient client = ProviderClient.open(nobody, ClientOptions.defaults())) {
            long start = System.nanoTime();
            ExecutionException e = assertThrows(ExecutionException.class,
                    () -> client.invoke(hello("x", 700), Runnable::run).get(10, TimeUnit.SECONDS));
            RpcException rpc = (RpcException) e.getCause();
            assertEquals(RpcStatus.TIMEOUT, rpc.status());
            assertTrue(rpc.isNotExecuted());
            assertTrue(rpc.getMessage().contains("cannot connect"), rpc.getMessage());
            assertTrue(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start) >= 650, "waited for its deadline");
        }
    }
}
