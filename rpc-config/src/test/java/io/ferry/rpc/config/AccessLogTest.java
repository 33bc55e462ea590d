package io.ferry.rpc.config;

import io.ferry.rpc.RpcContext;
import io.ferry.rpc.RpcException;
import io.ferry.rpc.RpcStatus;
import io.ferry.rpc.Ticker;
import io.ferry.rpc.config.fixtures.FerryFixture;
import io.ferry.rpc.config.fixtures.UserNotFoundException;
import io.ferry.rpc.config.fixtures.UserService;
import io.ferry.rpc.config.fixtures.UserServiceImpl;
import io.ferry.rpc.config.internal.files.Sources;
import io.ferry.rpc.testkit.StandardErrorLines;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Dubbo's access log on a real provider and consumer over TCP: a line per call with its status, whether the service
 * answered, threw, or the provider refused or dropped the call; argument values only when asked, escaped; the file
 * made with its directories and complete once the provider has closed; the logger; the option's scopes.
 */
class AccessLogTest {
    private static final String SERVICE = " service=" + UserService.class.getName() + " ";

    @RegisterExtension
    final FerryFixture ferries = new FerryFixture();
    private final UserServiceImpl impl = new UserServiceImpl();
    private Ferry provider;

    /** Exports {@link #impl} as {@code service} says on a protocol as {@code protocol} says; returns a consumer. */
    private UserService serve(ServiceConfig.Builder<UserService> service, ProtocolConfig.Builder protocol) {
        provider = ferries.track(Ferry.builder().shutdownHook(false).sources(Sources.none())
                .protocol(protocol.host("127.0.0.1").port(0).build()).build());
        int port = provider.export(service.build());
        return consumer("dubbo://127.0.0.1:" + port);
    }

    private UserService consumer(String url) {
        Ferry consumer = ferries.track(Ferry.builder().shutdownHook(false).sources(Sources.none()).build());
        return consumer.reference(ReferenceConfig.builder(UserService.class).url(url).retries(0)
                .timeout(Duration.ofSeconds(5)).build());
    }

    private ServiceConfig.Builder<UserService> users() {
        return ServiceConfig.builder(UserService.class, impl);
    }

    /** The file's lines once the provider has closed, which writes every line still queued. */
    private List<String> linesAfterClose(Path file) throws IOException {
        provider.close();
        return Files.readAllLines(file);
    }

    private Path logFile() {
        return ferries.dir().resolve("logs/ferry/access.log");
    }

    @Test
    void eachCallIsALineWithItsStatusInAFileMadeWithItsDirectoriesAndNoArgumentValues() throws Exception {
        UserService users = serve(users().accessLog(logFile().toString()), ProtocolConfig.builder());
        assertEquals("hello Ada", users.hello("Ada"));
        assertThrows(UserNotFoundException.class, () -> users.getUser(-7));
        assertThrows(RuntimeException.class, () -> users.crash("Ada's secret"));

        List<String> lines = linesAfterClose(logFile());
        assertEquals(3, lines.size(), lines.toString());
        String time = "\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z";
        assertTrue(lines.get(0).matches(time + " from=127\\.0\\.0\\.1:\\d+" + SERVICE + "method=hello status=OK"
                + " micros=\\d+"), lines.get(0));
        assertTrue(lines.get(1).contains(" method=getUser status=" + UserNotFoundException.class.getName() + " "),
                lines.get(1));
        assertTrue(lines.get(2).contains(" method=crash status=" + UserServiceImpl.InternalCrash.class.getName()
                + " "), "the service's own class, not the RuntimeException the consumer got: " + lines.get(2));
        assertTrue(lines.stream().noneMatch(l -> l.contains("Ada") || l.contains("-7") || l.contains("args=")),
                lines.toString());
    }

    @Test
    void argumentValuesWhenAskedEscapedSoAHostileValueForgesNoLine() throws Exception {
        UserService users = serve(users(), ProtocolConfig.builder().accessLog(logFile().toString())
                .accessLogArguments(true));
        users.hello("Ada");
        String forged = "x\n2025-01-01T00:00:00.000Z from=10.0.0.1:1" + SERVICE + "method=hello status=OK micros=1"
                + "\u001b[2K\r";
        users.hello(forged);

        List<String> lines = linesAfterClose(logFile());
        assertEquals(2, lines.size(), "one line a call, whatever the values hold: " + lines);
        assertTrue(lines.get(0).endsWith(" args=[\"Ada\"]"), lines.get(0));
        assertTrue(lines.get(1).endsWith(" args=[\"x\\n2025-01-01T00:00:00.000Z from=10.0.0.1:1" + SERVICE
                + "method=hello status=OK micros=1\\u001b[2K\\r\"]"), lines.get(1));
    }

    @Test
    void aCallTheTokenCheckRefusesIsLoggedForbiddenAndNoTokenEver() throws Exception {
        UserService withoutToken = serve(users().token("s3cret-token").accessLog(logFile().toString())
                .accessLogArguments(true), ProtocolConfig.builder());
        int port = provider.port();
        RpcException refused = assertThrows(RpcException.class, () -> withoutToken.hello("no token"));
        assertEquals(RpcStatus.FORBIDDEN, refused.status());
        assertThrows(RpcException.class, () -> consumer("dubbo://127.0.0.1:" + port + "?token=guessed-token")
                .hello("wrong token"));
        consumer("dubbo://127.0.0.1:" + port + "?token=s3cret-token").hello("right token");

        List<String> lines = linesAfterClose(logFile());
        assertEquals(3, lines.size(), lines.toString());
        assertTrue(lines.get(0).contains(" method=hello status=FORBIDDEN "), lines.get(0));
        assertTrue(lines.get(1).contains(" method=hello status=FORBIDDEN "), lines.get(1));
        assertTrue(lines.get(2).contains(" method=hello status=OK "), lines.get(2));
        assertTrue(lines.stream().noneMatch(l -> l.contains("s3cret") || l.contains("guessed")), lines.toString());
    }

    @Test
    void aRequestDroppedBecauseItsCallerGaveUpIsLoggedTimeout() throws Exception {
        UserService users = serve(users().accessLog(logFile().toString()),
                ProtocolConfig.builder().threads(1).queues(2));
        CompletableFuture<String> holding = CompletableFuture.supplyAsync(() -> users.block("hold"));
        assertTrue(impl.blockedEntered.await(10, TimeUnit.SECONDS), "block() has the provider's only thread");
        RpcContext.current().setTimeout(Duration.ofMillis(300));
        RpcException timedOut = assertThrows(RpcException.class, () -> users.hello("queued"));
        assertEquals(RpcStatus.TIMEOUT, timedOut.status(), timedOut.toString());
        // the request left with at most 300 ms to go: twice that after its caller gave up, it has expired on the
        // provider too, however late it arrived there
        long gaveUp = Ticker.system().nanoTime();
        await().atMost(Duration.ofSeconds(10)).until(() -> Ticker.system().nanoTime() - gaveUp
                > TimeUnit.MILLISECONDS.toNanos(600));
        impl.release.countDown();
        assertEquals("released hold", holding.join());

        List<String> lines = linesAfterClose(logFile());
        assertEquals(2, lines.size(), lines.toString());
        assertTrue(lines.stream().anyMatch(l -> l.contains(" method=hello status=TIMEOUT ")), lines.toString());
        assertTrue(lines.stream().anyMatch(l -> l.contains(" method=block status=OK ")), lines.toString());
    }

    @Test
    void trueWritesToTheLoggerFerryAccesslog() {
        try (StandardErrorLines log = new StandardErrorLines()) {
            UserService users = serve(users(), ProtocolConfig.builder().accessLog("true"));
            users.add(1, 2);
            await().atMost(Duration.ofSeconds(10)).until(() -> !log.containing(" ferry.accesslog - ").isEmpty());
            String line = log.containing(" ferry.accesslog - ").get(0);
            assertTrue(line.contains("INFO ferry.accesslog - ") && line.contains(SERVICE + "method=add status=OK"),
                    line);
        }
    }

    @Test
    void aServicesOwnWordWinsOverTheProtocolsAndFalseTurnsItOff() throws Exception {
        Path other = ferries.dir().resolve("other.log");
        UserService users = serve(users().accessLog("false"), ProtocolConfig.builder().accessLog(other.toString())
                .accessLogArguments(true));
        users.hello("Ada");
        provider.close();
        assertTrue(Files.notExists(other), "no service wrote there, so it was never opened");

        UserService own = serve(users().accessLog(logFile().toString()).accessLogArguments(false),
                ProtocolConfig.builder().accessLog(other.toString()).accessLogArguments(true));
        own.hello("Ada");
        List<String> lines = linesAfterClose(logFile());
        assertEquals(1, lines.size());
        assertTrue(!lines.get(0).contains("args="), lines.get(0));
    }

    @Test
    void aFileThatCannotBeOpenedFailsTheExportNamingTheOptionAndThePath() throws Exception {
        Path plain = ferries.file("plain", "not a directory");
        Path file = plain.resolve("access.log");
        Ferry ferry = ferries.track(Ferry.builder().shutdownHook(false).sources(Sources.none())
                .protocol(ProtocolConfig.builder().host("127.0.0.1").port(0).build()).build());

        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> ferry.export(users().accessLog(file.toString()).build()));
        assertTrue(e.getMessage().startsWith("accesslog: cannot open " + file + " for append"), e.getMessage());
        assertThrows(IllegalStateException.class, ferry::port, "nothing was exported, so no server runs");
    }

    @Test
    void theProviderDefaultsOfAFileTurnItOnForEveryService() throws Exception {
        Path xml = ferries.file("provider.xml",
                "<ferry:config xmlns:ferry=\"http://ferry.io/schema/ferry\">",
                "  <ferry:protocol name=\"dubbo\" host=\"127.0.0.1\" port=\"0\"/>",
                "  <ferry:provider accesslog=\"" + logFile() + "\" accessLogArguments=\"true\"/>",
                "  <ferry:service interface=\"" + UserService.class.getName() + "\" ref=\"users\"/>",
                "</ferry:config>");
        provider = ferries.track(Ferry.fromXml(xml, Map.of("users", impl)));
        consumer("dubbo://127.0.0.1:" + provider.port()).twice(21);

        List<String> lines = linesAfterClose(logFile());
        assertEquals(1, lines.size());
        assertTrue(lines.get(0).matches(".* method=twice status=OK micros=\\d+ args=\\[21]"), lines.get(0));
    }

    @Test
    void aNameThatIsNoFileIsRefusedWithTheConfig() {
        assertEquals("accesslog: 'a\0b' (expected: true, false or a file name: Nul character not allowed)",
                assertThrows(IllegalArgumentException.class, () -> users().accessLog("a\0b").build()).getMessage());
        assertEquals("accesslog: ' ' (expected: true, false or a file name: empty)", assertThrows(
                IllegalArgumentException.class, () -> ProtocolConfig.builder().accessLog(" ").build()).getMessage());
    }
}
