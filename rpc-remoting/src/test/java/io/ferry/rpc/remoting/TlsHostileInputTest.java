package io.ferry.rpc.remoting;

import io.ferry.rpc.Result;
import io.ferry.rpc.RpcStatus;
import io.ferry.rpc.testkit.TestPki;
import io.ferry.rpc.testkit.TlsBytes;
import io.ferry.rpc.testkit.TestPki.KeyPairFiles;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLSocket;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import static io.ferry.rpc.remoting.ClientExtension.call;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Hostile peers of a TLS port, and TLS sent to a plain one: every such connection is closed within its deadline,
 * and the provider keeps serving an honest consumer throughout.
 */
class TlsHostileInputTest {
    private static final Duration HANDSHAKE = Duration.ofMillis(500);

    @RegisterExtension
    final ClientExtension clients = new ClientExtension();
    @TempDir
    Path dir;
    private TestPki pki;
    private Server tls;
    private Server plain;
    private final List<Socket> sockets = new ArrayList<>();

    @BeforeEach
    void start() {
        pki = TestPki.create(dir, "ferry");
        KeyPairFiles provider = pki.server("provider");
        tls = start(TlsOptions.builder().serverKeyCertChain(provider.certificateChain().toString(),
                provider.privateKey().toString()).handshakeTimeout(HANDSHAKE).build());
        plain = start(null);
    }

    private static Server start(TlsOptions options) {
        Server server = Server.start(ServerOptions.builder().host("127.0.0.1").port(0).tls(options).build());
        server.export(ServiceExport.of(Greeter.class,
                invocation -> CompletableFuture.completedFuture(Result.of("hello " + invocation.arguments()[0]))));
        return server;
    }

    @AfterEach
    void stop() throws IOException {
        for (Socket socket : sockets) {
            socket.close();
        }
        tls.close();
        plain.close();
    }

    private Socket connect(Server server) throws IOException {
        Socket socket = new Socket(server.address().getAddress(), server.port());
        socket.setSoTimeout(10_000); // far past every deadline here: a read that times out means nobody closed
        sockets.add(socket);
        return socket;
    }

    /** Reads until the provider closes the connection; fails if it does not within the socket's timeout. */
    private static void assertClosedByProvider(Socket socket) throws IOException {
        InputStream in = socket.getInputStream();
        byte[] buffer = new byte[4096];
        try {
            while (in.read(buffer) >= 0) {
                // whatever the provider says before it closes (a TLS alert, a server hello) is not the point
            }
        } catch (SocketTimeoutException e) {
            throw new AssertionError("the provider kept the connection open", e);
        } catch (IOException e) {
            // reset: closed as well
        }
    }

    private void assertStillServes() throws Exception {
        TlsOptions trusting = TlsOptions.builder().clientTrustCertCollection(pki.caCertificate().toString()).build();
        ProviderEndpoint endpoint = clients.direct(tls.address(), ClientOptions.builder().tls(trusting).build());
        assertEquals("hello honest", call(endpoint, "honest"));
    }


    @Test
    void aConnectionThatNeverSpeaksIsClosedAfterTheHandshakeTimeout() throws Exception {
        assertClosedByProvider(connect(tls));
        assertStillServes();
    }

    @Test
    void aHandshakeThatStopsHalfwayIsClosedAfterTheHandshakeTimeout() throws Exception {
        Socket socket = connect(tls);
        byte[] hello = TlsBytes.clientHello();
        socket.getOutputStream().write(hello, 0, hello.length / 2);
        assertClosedByProvider(socket);
        assertStillServes();
    }

    @Test
    void aRecordHeaderAloneIsClosedAfterTheHandshakeTimeout() throws Exception {
        Socket socket = connect(tls);
        socket.getOutputStream().write(new byte[] {0x16, 0x03}); // too short to tell what it is
        assertClosedByProvider(socket);
    }

    @Test
    void aClientOfTls10Or11IsAnsweredWithAFatalAlertNeverAServerHello() throws Exception {
        for (int minor : new int[] {1, 2}) {
            Socket socket = connect(tls);
            socket.getOutputStream().write(TlsBytes.legacyClientHello(minor));
            byte[] answer = socket.getInputStream().readNBytes(7);
            assertEquals(7, answer.length, "TLS 1." + (minor - 1) + ": an alert record before the close");
            assertEquals(0x15, answer[0], "TLS 1." + (minor - 1) + ": an alert, not a handshake record");
            assertEquals(2, answer[5], "a fatal alert");
            assertTrue(answer[6] == 70 || answer[6] == 40, "protocol_version or handshake_failure: " + answer[6]);
            assertClosedByProvider(socket);
        }
        assertStillServes();
    }

    @Test
    void aFirstRecordClaimingMoreThanTlsAllowsIsClosedAtOnceNotHeldUntilTheDeadline() throws Exception {
        // a patient provider: only the claimed length, not its handshake deadline, can close this within 10 s
        KeyPairFiles provider = pki.server("patient");
        Server patient = start(TlsOptions.builder().serverKeyCertChain(provider.certificateChain().toString(),
                provider.privateKey().toString()).handshakeTimeout(Duration.ofSeconds(60)).build());
        try {
            Socket socket = connect(patient);
            socket.getOutputStream().write(new byte[] {0x16, 0x03, 0x01, (byte) 0xff, (byte) 0xff, 0x01});
            assertClosedByProvider(socket);
        } finally {
            patient.close();
        }
    }

    @Test
    void garbageInsteadOfAClientHelloIsClosedAtOnce() throws Exception {
        Socket socket = connect(tls);
        socket.getOutputStream().write("GET / HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
        assertClosedByProvider(socket);
        assertStillServes();
    }

    @Test
    void plainDubboFramesToATlsPortAreAnsweredWhyAndClosed() throws Exception {
        try (RawPeer peer = new RawPeer(tls.address())) {
            peer.sendRequest(7, RawPeer.body(Greeter.class.getName(), "hello", "Ljava/lang/String;",
                    RawPeer.objects("x")));
            RawPeer.Answer answer = peer.readAnswer();
            assertEquals(7, answer.id());
            assertEquals(RpcStatus.BAD_REQUEST.wireCode(), answer.status());
            assertTrue(answer.message().contains("speaks TLS only"), answer.message());
            assertThrows(java.io.EOFException.class, peer::readAnswer, "closed after the answer");
        }
        assertStillServes();
    }

    @Test
    void aClientHelloToAPlainPortIsClosedAndThePortServesOn() throws Exception {
        SSLSocket socket = (SSLSocket) SSLContext.getDefault().getSocketFactory().createSocket("127.0.0.1",
                plain.port());
        sockets.add(socket);
        socket.setSoTimeout(10_000);
        assertThrows(SSLException.class, socket::startHandshake);
        ProviderEndpoint endpoint = clients.direct(plain.address(), ClientOptions.defaults());
        assertEquals("hello plain", call(endpoint, "plain"));
    }

    @Test
    void aFloodOfHandshakesThatNeverFinishIsShedAndHonestConsumersAreServed() throws Exception {
        byte[] hello = TlsBytes.clientHello();
        List<Socket> flood = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            Socket socket = connect(tls);
            socket.getOutputStream().write(hello); // the provider answers, then waits for a Finished never sent
            flood.add(socket);
        }
        assertStillServes();
        await().atMost(Duration.ofSeconds(10)).until(() -> tls.connections() <= 1); // the honest one, at most
        for (Socket socket : flood) {
            assertClosedByProvider(socket);
        }
    }

    @Test
    void aTlsPortCountsHandshakingConnectionsAgainstItsAcceptsLimit() throws Exception {
        KeyPairFiles provider = pki.server("limited");
        try (Server limited = Server.start(ServerOptions.builder().host("127.0.0.1").port(0).accepts(2)
                .tls(TlsOptions.builder().serverKeyCertChain(provider.certificateChain().toString(),
                        provider.privateKey().toString()).build()).build())) {
            connect(limited);
            connect(limited);
            // counted on their IO threads: the third must come after both are
            await().atMost(Duration.ofSeconds(10)).until(() -> limited.connections() == 2);
            Socket third = connect(limited);
            assertClosedByProvider(third); // at once: the handshake timeout here is the default 10 s
            assertEquals(2, limited.connections());
        }
    }
}
