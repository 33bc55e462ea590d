package io.ferry.rpc.remoting;

import io.ferry.rpc.testkit.RawHttp;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** The admin port's HTTP, over real sockets: what it answers, on which thread, and every request it refuses. */
class AdminServerTest {
    private final List<AdminServer> started = new ArrayList<>();
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(10)).build();
    private final List<String> handlerThreads = Collections.synchronizedList(new ArrayList<>());
    private final CompletableFuture<AdminResponse> slow = new CompletableFuture<>();

    @AfterEach
    void close() {
        slow.complete(AdminResponse.error(503, "test over"));
        started.forEach(AdminServer::close);
    }

    private AdminServer start(AdminServer.Builder builder) {
        AdminServer server = builder.port(0)
                .route(AdminRoute.get("/hello", request -> {
                    handlerThreads.add(Thread.currentThread().getName());
                    return AdminResponse.json(200, new JsonWriter().beginObject()
                            .field("name", request.parameter("name")).endObject()).now();
                }))
                .route(AdminRoute.post("/command", request -> AdminResponse.error(202, "done").now()))
                .route(AdminRoute.get("/slow", request -> slow))
                .route(AdminRoute.get("/broken", request -> {
                    throw new IllegalStateException("secret=hunter2");
                }))
                .start();
        started.add(server);
        return server;
    }

    private AdminServer start() {
        return start(AdminServer.builder());
    }

    private HttpResponse<String> send(AdminServer server, String method, String pathAndQuery) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + pathAndQuery))
                .method(method, HttpRequest.BodyPublishers.noBody()).timeout(Duration.ofSeconds(20)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void answersItsRoutesInJsonOnItsOwnThread() throws Exception {
        AdminServer server = start();
        HttpResponse<String> answer = send(server, "GET", "/hello?name=%22Ada%22&name=Bob");
        assertEquals(200, answer.statusCode());
        assertEquals("{\"name\":\"\\\"Ada\\\"\"}", answer.body());
        assertEquals("application/json; charset=utf-8", answer.headers().firstValue("content-type").orElse(""));
        assertEquals("no-store", answer.headers().firstValue("cache-control").orElse(""));
        assertTrue(handlerThreads.get(0).startsWith("ferry-admin"), handlerThreads.toString());
        assertEquals(202, send(server, "POST", "/command").statusCode());
    }

    @Test
    void refusesUnknownPathsAndWrongMethodsWithoutClosing() throws Exception {
        AdminServer server = start();
        HttpResponse<String> unknown = send(server, "GET", "/nothing");
        assertEquals(404, unknown.statusCode());
        assertEquals("{\"error\":\"no such path\"}", unknown.body());
        HttpResponse<String> get = send(server, "GET", "/command");
        assertEquals(405, get.statusCode());
        assertEquals("POST", get.headers().firstValue("allow").orElse(""));
        assertEquals(405, send(server, "DELETE", "/hello").statusCode());
        assertEquals(200, send(server, "GET", "/hello").statusCode());
    }

    @Test
    void aFailingHandlerAnswers500WithoutItsMessage() throws Exception {
        HttpResponse<String> answer = send(start(), "GET", "/broken");
        assertEquals(500, answer.statusCode());
        assertFalse(answer.body().contains("hunter2"), answer.body());
    }

    @Test
    void aHandlerThatWaitsHoldsUpNoOtherRequest() throws Exception {
        AdminServer server = start();
        CompletableFuture<HttpResponse<String>> waiting = http.sendAsync(HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + server.port() + "/slow")).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, send(server, "GET", "/hello").statusCode()); // the one thread is free meanwhile
        assertFalse(waiting.isDone());
        slow.complete(AdminResponse.error(409, "later"));
        assertEquals(409, waiting.get(20, TimeUnit.SECONDS).statusCode());
    }

    @Test
    void headersOverTheirLimitAre431AndClosed() throws Exception {
        try (RawHttp raw = RawHttp.connect("127.0.0.1", start().port())) {
            RawHttp.Answer answer = raw.write("GET /hello HTTP/1.1\r\nHost: x\r\nX-Big: " + "a".repeat(9000)
                    + "\r\n\r\n").readUntilClosed();
            assertEquals(431, answer.status(), answer.toString());
            assertEquals("close", answer.header("connection"));
        }
    }

    @Test
    void aRequestLineOverItsLimitIs414() throws Exception {
        try (RawHttp raw = RawHttp.connect("127.0.0.1", start().port())) {
            assertEquals(414, raw.write("GET /hello?x=" + "a".repeat(5000) + " HTTP/1.1\r\nHost: x\r\n\r\n")
                    .readUntilClosed().status());
        }
    }

    @Test
    void aBodyOverItsLimitIs413WhetherDeclaredOrChunked() throws Exception {
        AdminServer server = start();
        try (RawHttp raw = RawHttp.connect("127.0.0.1", server.port())) {
            assertEquals(413, raw.write("POST /command HTTP/1.1\r\nHost: x\r\nContent-Length: 100000\r\n\r\n")
                    .readUntilClosed().status());
        }
        try (RawHttp raw = RawHttp.connect("127.0.0.1", server.port())) {
            String chunk = Integer.toHexString(5000) + "\r\n" + "b".repeat(5000) + "\r\n";
            assertEquals(413, raw.write("POST /command HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
                    + chunk + chunk).readUntilClosed().status());
        }
    }

    @Test
    void aRequestNotCompleteInTimeIs408AndAnIdleConnectionIsClosedQuietly() throws Exception {
        AdminServer server = start(AdminServer.builder().requestTimeout(Duration.ofMillis(300)));
        try (RawHttp raw = RawHttp.connect("127.0.0.1", server.port())) {
            RawHttp.Answer answer = raw.write("GET /hello HTTP/1.1\r\nHost: x\r\n").readUntilClosed();
            assertEquals(408, answer.status(), answer.toString());
        }
        try (RawHttp raw = RawHttp.connect("127.0.0.1", server.port())) {
            assertEquals("", raw.readUntilClosed().head()); // nothing sent, nothing answered: closed
        }
    }

    @Test
    void garbageIs400() throws Exception {
        try (RawHttp raw = RawHttp.connect("127.0.0.1", start().port())) {
            assertEquals(400, raw.write("\u0001\u0002 nonsense\r\n\r\n").readUntilClosed().status());
        }
    }

    @Test
    void aPeerOfAnotherMachineIs403UnlessForeignPeersAreAccepted() throws Exception {
        String foreign = nonLoopbackAddress();
        assumeTrue(foreign != null, "this machine has no address but loopback: no foreign peer to be");
        AdminServer closed = start(AdminServer.builder().host(foreign));
        try (RawHttp raw = RawHttp.connect(foreign, foreign, closed.port())) {
            RawHttp.Answer answer = raw.write("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n").readUntilClosed();
            assertEquals(403, answer.status(), answer.toString());
            assertTrue(answer.body().contains("qos-accept-foreign-ip"), answer.body());
        }
        AdminServer open = start(AdminServer.builder().host(foreign).acceptForeignIp(true));
        try (RawHttp raw = RawHttp.connect(foreign, foreign, open.port())) {
            assertEquals(200, raw.write("GET /hello HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
                    .readUntilClosed().status());
        }
    }

    @Test
    void aPortInUseIsRefusedNamingTheOption() {
        AdminServer first = start();
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> AdminServer.builder().port(first.port()).start());
        assertTrue(e.getMessage().startsWith("qos-port: cannot listen on 127.0.0.1 port " + first.port()),
                e.getMessage());
    }

    @Test
    void twoRoutesForOnePathAndMethodAreRefused() {
        AdminServer.Builder twice = AdminServer.builder().port(0)
                .route(AdminRoute.get("/x", r -> AdminResponse.error(200, "a").now()))
                .route(AdminRoute.get("/x", r -> AdminResponse.error(200, "b").now()));
        assertThrows(IllegalArgumentException.class, twice::start);
    }

    /** An IPv4 address of this machine that is not loopback, or null: a peer on it is foreign to the admin port. */
    private static String nonLoopbackAddress() throws Exception {
        for (NetworkInterface nic : Collections.list(NetworkInterface.getNetworkInterfaces())) {
            if (!nic.isUp() || nic.isLoopback()) {
                continue;
            }
            for (InetAddress address : Collections.list(nic.getInetAddresses())) {
                if (address instanceof Inet4Address && !address.isLoopbackAddress()) {
                    return address.getHostAddress();
                }
            }
        }
        return null;
    }
}
