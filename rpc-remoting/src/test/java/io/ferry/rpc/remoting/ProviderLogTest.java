package io.ferry.rpc.remoting;

import io.ferry.rpc.Filter;
import io.ferry.rpc.Result;
import io.ferry.rpc.RpcStatus;
import io.ferry.rpc.Ticker;
import io.ferry.rpc.remoting.internal.log.PeerLog;
import io.ferry.rpc.testkit.StandardErrorLines;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What a hostile peer can make a provider log, over real sockets and the log as slf4j-simple prints it: resets are
 * not warnings, a flood of bad frames is cut to {@value PeerLog#PER_SECOND} lines a second with a count of the rest,
 * and text from the wire cannot forge a line.
 */
class ProviderLogTest {
    private static final String GREETER = Greeter.class.getName();
    /** A class name that, printed as it is, ends the log line and starts a forged one in red. */
    private static final String FORGED_CLASS = "com.evil.Name\n12:00:00.000 [main] INFO io.ferry.rpc.remoting.Server"
            + " - FORGED all good\u001b[31m";

    private final AtomicLong now = new AtomicLong();
    private Server server;

    private void start(Ticker ticker) {
        server = Server.start(ServerOptions.builder().host("127.0.0.1").port(0).threads(4).build(), ticker);
        server.export(ServiceExport.of(Greeter.class, invocation -> CompletableFuture.completedFuture(
                Result.of("hello " + invocation.arguments()[0]))));
    }

    @AfterEach
    void stop() {
        server.close();
    }

    private RawPeer.Answer send(byte[] body) throws IOException {
        try (RawPeer peer = new RawPeer(server.address())) {
            peer.sendRequest(7, body);
            return peer.readAnswer();
        }
    }

    private void assertStillServing() throws IOException {
        RawPeer.Answer ok = send(RawPeer.body(GREETER, "hello", "Ljava/lang/String;",
                RawPeer.objects("again", RawPeer.attachments())));
        assertEquals(20, ok.status());
    }

    @Test
    void connectionsThatSendHalfAHeaderAndResetAreNoWarnings() throws Exception {
        start(Ticker.system());
        byte[] hello = RawPeer.frame(1, RawPeer.body(GREETER, "hello", "Ljava/lang/String;",
                RawPeer.objects("x", RawPeer.attachments())));
        byte[] halfHeader = Arrays.copyOf(hello, 8);
        try (StandardErrorLines log = new StandardErrorLines()) {
            for (int i = 0; i < 300; i++) {
                Socket socket = new Socket(server.address().getAddress(), server.port());
                socket.getOutputStream().write(halfHeader);
                socket.setSoLinger(true, 0); // close with a reset
                socket.close();
            }
            assertStillServing(); // accepted after all of them, so all of them were accepted
            await().atMost(Duration.ofSeconds(30)).until(() -> server.connections() == 0);
            assertEquals(List.of(), log.containing("closing after an error"));
            List<String> warnings = log.containing(" WARN ");
            assertTrue(warnings.size() <= PeerLog.PER_SECOND, String.join("\n", warnings));
        }
    }

    @Test
    void aFloodOfBadFramesLogsTenLinesASecondAndCountsTheRest() throws Exception {
        start(now::get); // the server's seconds stand still until the test moves them
        byte[] http = "GET / HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
        try (StandardErrorLines log = new StandardErrorLines()) {
            for (int i = 0; i < 50; i++) {
                sendAndAwaitClose(http);
            }
            assertEquals(PeerLog.PER_SECOND, log.containing("not a Dubbo frame").size());
            now.addAndGet(TimeUnit.SECONDS.toNanos(1));
            sendAndAwaitClose(http);
            List<String> lines = log.containing("not a Dubbo frame");
            assertEquals(PeerLog.PER_SECOND + 1, lines.size());
            String last = lines.get(lines.size() - 1);
            assertTrue(last.endsWith("(40 more like this not logged)"), last);
        }
        assertStillServing();
    }

    /** Writes {@code bytes} on a new connection and returns once the provider has closed it. */
    private void sendAndAwaitClose(byte[] bytes) throws IOException {
        try (Socket socket = new Socket(server.address().getAddress(), server.port())) {
            socket.setSoTimeout(10_000);
            socket.getOutputStream().write(bytes);
            try {
                assertEquals(-1, socket.getInputStream().read());
            } catch (SocketException reset) {
                // closed with our bytes unread: a reset, which is a close too
            }
        }
    }

    /**
     * What a front filter (Ferry's access log) names comes from the export, never from the wire: a request naming a
     * hostile method, service or argument class is answered before the service's chain, so the filter never sees
     * it, and a call it does see names the method and service as exported.
     */
    @Test
    void hostileNamesNeverReachTheFrontFilter() throws Exception {
        List<String> seen = new CopyOnWriteArrayList<>();
        Filter front = (invocation, next) -> {
            seen.add(invocation.serviceKey() + "." + invocation.method().getName());
            return next.invoke(invocation);
        };
        server = Server.start(ServerOptions.builder().host("127.0.0.1").port(0).threads(4).build());
        server.export(new ServiceExport(Greeter.class, "", "", invocation -> CompletableFuture.completedFuture(
                Result.of("hello")), null, null, Map.of(), null, front));

        assertEquals(RpcStatus.METHOD_NOT_FOUND.wireCode(), send(RawPeer.body(GREETER, "hello" + FORGED_CLASS,
                "Ljava/lang/String;", RawPeer.objects("x", RawPeer.attachments()))).status());
        assertEquals(RpcStatus.SERVICE_NOT_FOUND.wireCode(), send(RawPeer.body(GREETER + FORGED_CLASS, "hello",
                "Ljava/lang/String;", RawPeer.objects("x", RawPeer.attachments()))).status());
        assertEquals(RpcStatus.BAD_REQUEST.wireCode(), send(RawPeer.body(GREETER, "hello", "Ljava/lang/String;",
                (h, buf) -> {
                    h.writeObjectBegin(FORGED_CLASS);
                    h.writeInt(0);
                    h.writeObjectBegin(FORGED_CLASS);
                    h.writeObject(RawPeer.attachments());
                })).status());
        assertStillServing();
        assertEquals(List.of(GREETER + ".hello"), seen);
    }

    @Test
    void aClassNameWithANewlineAndTerminalCodesForgesNoLine() throws Exception {
        start(Ticker.system());
        byte[] body = RawPeer.body(GREETER, "hello", "Ljava/lang/String;", (h, buf) -> {
            h.writeObjectBegin(FORGED_CLASS); // a class definition with no field, then its instance
            h.writeInt(0);
            h.writeObjectBegin(FORGED_CLASS);
            h.writeObject(RawPeer.attachments());
        });
        try (StandardErrorLines log = new StandardErrorLines()) {
            RawPeer.Answer answer = send(body);
            assertEquals(RpcStatus.BAD_REQUEST.wireCode(), answer.status());
            assertTrue(answer.message().contains("com.evil.Name\\n12:00:00.000 [main] INFO"), answer.message());
            assertTrue(answer.message().contains("FORGED all good\\u001b[31m"), answer.message());
            assertFalse(answer.message().contains("\n") || answer.message().contains("\u001b"), answer.message());

            List<String> forged = log.containing("FORGED");
            assertEquals(1, forged.size(), String.join("\n", forged));
            assertTrue(forged.get(0).contains("refused a") && forged.get(0).contains("com.evil.Name\\n12:00"),
                    forged.get(0));
            assertEquals(List.of(), log.containing("\u001b"));
        }
        assertStillServing();
    }

    @Test
    void aServiceNameWithControlCharactersIsEscapedInItsAnswer() throws Exception {
        start(Ticker.system());
        RawPeer.Answer answer = send(RawPeer.body("com.evil\r\nFORGED\u001b[2K", "hello", "Ljava/lang/String;",
                RawPeer.objects("x", RawPeer.attachments())));
        assertEquals(RpcStatus.SERVICE_NOT_FOUND.wireCode(), answer.status());
        assertTrue(answer.message().contains("com.evil\\r\\nFORGED\\u001b[2K"), answer.message());
    }
}
