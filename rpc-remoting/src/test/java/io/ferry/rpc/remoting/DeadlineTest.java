package io.ferry.rpc.remoting;

import io.ferry.rpc.Invocation;
import io.ferry.rpc.Result;
import io.ferry.rpc.RpcException;
import io.ferry.rpc.RpcStatus;
import io.ferry.rpc.remoting.internal.codec.Frame;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.DataInputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import static io.ferry.rpc.remoting.ClientExtension.hello;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A call's one deadline on both ends: never written once passed, never run once passed, sent as {@code _TO}. */
class DeadlineTest {
    private static final String GREETER = Greeter.class.getName();

    @RegisterExtension
    final ClientExtension clients = new ClientExtension();
    private final BlockingQueue<Invocation> ran = new LinkedBlockingQueue<>();
    private Server server;

    @AfterEach
    void stop() {
        if (server != null) {
            server.close();
        }
    }

    private void startProvider() {
        server = Server.start(ServerOptions.builder().host("127.0.0.1").port(0).build());
        server.export(ServiceExport.of(Greeter.class, invocation -> {
            ran.add(invocation);
            return CompletableFuture.completedFuture(Result.of("hello " + invocation.arguments()[0]));
        }));
    }

    private RawPeer.Answer send(String name, Object timeLeft) throws Exception {
        try (RawPeer peer = new RawPeer(server.address())) {
            peer.sendRequest(5, RawPeer.body(GREETER, "hello", "Ljava/lang/String;",
                    RawPeer.objects(name, RawPeer.attachments("timeout", "1000", "_TO", timeLeft))));
            return peer.readAnswer();
        }
    }

    @Test
    void aRequestWhoseDeadlinePassedBeforeItRunsIsAnsweredTimeoutWithoutRunning() throws Exception {
        startProvider();
        RawPeer.Answer expired = send("too late", 0);
        assertEquals(31, expired.status(), "SERVER_TIMEOUT, as Dubbo names it");
        assertTrue(expired.message().startsWith(RpcStatus.EXPIRED_PREFIX), expired.message());
        assertEquals(RpcStatus.TIMEOUT, RpcStatus.fromWire(expired.status(), expired.message()));
        assertTrue(ran.isEmpty(), "the service never saw it");
    }

    @Test
    void aRequestWithTimeLeftRunsAndSeesItsDeadline() throws Exception {
        startProvider();
        assertEquals(Frame.STATUS_OK, send("in time", 5000).status());
        Invocation invocation = ran.poll(5, TimeUnit.SECONDS);
        long left = invocation.deadline().remainingNanos();
        assertTrue(left > 0 && left <= TimeUnit.SECONDS.toNanos(5), "deadline from _TO: " + invocation.deadline());
    }

    @Test
    void theConsumerSendsTheTimeLeftAndTheConfiguredTimeout() throws Exception {
        startProvider();
        ProviderEndpoint endpoint = clients.direct(server.address(), ClientOptions.defaults());
        assertEquals("hello a", endpoint.invoke(hello("a", 3000)).get(5, TimeUnit.SECONDS).value());
        Invocation received = ran.poll(5, TimeUnit.SECONDS);
        assertEquals("3000", received.attachments().get("timeout"), "Dubbo's String attachment, as configured");
        Object timeLeft = received.attachments().get("_TO");
        assertTrue(timeLeft instanceof Integer left && left > 0 && left <= 3000, "_TO: " + timeLeft);
    }

    @Test
    void aCallWhoseDeadlinePassesWhileItWaitsForAConnectionIsNeverWritten() throws Exception {
        try (LateProvider provider = new LateProvider()) {
            ProviderEndpoint endpoint = clients.direct(provider.address(), ClientOptions.defaults());
            ExecutionException e = assertThrows(ExecutionException.class,
                    () -> endpoint.invoke(hello("first", 200)).get(10, TimeUnit.SECONDS));
            RpcException timeout = (RpcException) e.getCause();
            assertEquals(RpcStatus.TIMEOUT, timeout.status());
            assertTrue(timeout.isNotExecuted());
            assertTrue(timeout.getMessage().contains("within its timeout of 200 ms"), timeout.getMessage());

            provider.answerPing.countDown(); // the connection becomes ready only now
            Invocation second = ClientExtension.invocation(ClientExtension.method("hello", String.class), 5000,
                    "second");
            endpoint.invoke(new Invocation(second.service(), "", "", second.method(), second.arguments(),
                    second.attachments(), second.deadline(), true, Runnable::run)).get(10, TimeUnit.SECONDS);
            String firstRequest = provider.requests.poll(10, TimeUnit.SECONDS);
            assertTrue(firstRequest.contains("second"), "the first request written is the second call");
            assertFalse(firstRequest.contains("first"));
        }
    }

    /** Accepts, but answers the readiness ping only when the test says so; records each request body it reads. */
    private static final class LateProvider implements AutoCloseable {
        final ServerSocket socket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        final CountDownLatch answerPing = new CountDownLatch(1);
        final BlockingQueue<String> requests = new LinkedBlockingQueue<>();

        LateProvider() throws Exception {
            Thread thread = new Thread(this::serve, "late-provider");
            thread.setDaemon(true);
            thread.start();
        }

        private void serve() {
            try (Socket s = socket.accept()) {
                DataInputStream in = new DataInputStream(s.getInputStream());
                OutputStream out = s.getOutputStream();
                while (true) {
                    byte[] header = new byte[16];
                    in.readFully(header);
                    byte[] body = new byte[ByteBuffer.wrap(header, 12, 4).getInt()];
                    in.readFully(body);
                    if ((header[2] & 0x20) != 0) {
                        answerPing.await();
                        header[2] = 0x22;
                        header[3] = 20;
                        out.write(header);
                        out.write(body);
                    } else {
                        requests.add(new String(body, StandardCharsets.ISO_8859_1));
                    }
                }
            } catch (Exception closed) {
                // the test is over
            }
        }

        InetSocketAddress address() {
            return new InetSocketAddress(InetAddress.getLoopbackAddress(), socket.getLocalPort());
        }

        @Override
        public void close() throws Exception {
            answerPing.countDown();
            socket.close();
        }
    }
}
