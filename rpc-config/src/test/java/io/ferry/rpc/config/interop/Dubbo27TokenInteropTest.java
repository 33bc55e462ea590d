package io.ferry.rpc.config.interop;

import io.ferry.rpc.RpcException;
import io.ferry.rpc.RpcStatus;
import io.ferry.rpc.config.ApplicationConfig;
import io.ferry.rpc.config.Ferry;
import io.ferry.rpc.config.ProtocolConfig;
import io.ferry.rpc.config.ReferenceConfig;
import io.ferry.rpc.config.ServiceConfig;
import io.ferry.rpc.config.fixtures.FerryFixture;
import io.ferry.rpc.config.fixtures.UserService;
import io.ferry.rpc.config.fixtures.UserServiceImpl;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Dubbo's token between Ferry and stock Apache Dubbo 2.7.23, both ways: Dubbo 2.7 runs in a child JVM on its own
 * class path (rpc-config/target/dubbo-2.7.23, copied by the build), since it cannot share one with Dubbo 3 and
 * Netty 4.2.
 */
class Dubbo27TokenInteropTest {
    private static final Path DUBBO_27 = Path.of("target", "dubbo-2.7.23");

    @RegisterExtension
    final FerryFixture ferries = new FerryFixture();
    private final List<Process> children = new ArrayList<>();

    @AfterEach
    void stop() {
        children.forEach(Process::destroyForcibly);
    }

    /** Counts the hellos that ran. */
    public static final class CountingUsers extends UserServiceImpl {
        final AtomicInteger hellos = new AtomicInteger();

        @Override
        public String hello(String name) {
            hellos.incrementAndGet();
            return super.hello(name);
        }
    }

    private Process dubbo27(String... args) throws IOException {
        String classPath;
        try (Stream<Path> jars = Files.list(DUBBO_27)) {
            classPath = jars.map(Path::toString).collect(Collectors.joining(File.pathSeparator));
        }
        String testClasses = Path.of("target", "test-classes").toString();
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                .toString(), "-Xmx256m", "-XX:TieredStopAtLevel=1",
                // Dubbo 2.7's javassist compiles its adaptive classes through java.lang's internals
                "--add-opens", "java.base/java.lang=ALL-UNNAMED", "--add-opens", "java.base/java.util=ALL-UNNAMED",
                "--add-opens", "java.base/java.math=ALL-UNNAMED", "-cp", classPath + File.pathSeparator
                + testClasses, Dubbo27TokenScenario.class.getName()));
        command.addAll(List.of(args));
        Process child = new ProcessBuilder(command).redirectErrorStream(true).start();
        children.add(child);
        return child;
    }

    /** The child's SCENARIO lines, once it ends (or its first one naming {@code until}). */
    private static List<String> scenarioLines(Process child, String until) throws IOException {
        List<String> lines = new ArrayList<>();
        StringBuilder all = new StringBuilder();
        BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8));
        for (String line = out.readLine(); line != null; line = out.readLine()) {
            all.append(line).append('\n');
            if (line.startsWith("SCENARIO ")) {
                lines.add(line.substring("SCENARIO ".length()));
                if (line.contains("FAILED")) {
                    throw new AssertionError("the Dubbo 2.7.23 peer failed:\n" + all);
                }
                if (until != null && line.contains(until)) {
                    break;
                }
            }
        }
        return lines;
    }

    @Test
    void aDubbo27ConsumerSendsTheTokenOfItsUrlAndAWrongOneIsRefusedInDubbosWords() throws Exception {
        CountingUsers users = new CountingUsers();
        Ferry provider = ferries.track(Ferry.builder().application(ApplicationConfig.of("ferry-token-provider"))
                .protocol(ProtocolConfig.builder().host("127.0.0.1").port(0).build()).build());
        int port = provider.export(ServiceConfig.builder(UserService.class, (UserService) users).token("s3cret")
                .build());
        Process child = dubbo27("consumer", String.valueOf(port), "s3cret");
        assertTrue(child.waitFor(120, TimeUnit.SECONDS), "the Dubbo 2.7.23 consumer ended");
        List<String> lines = scenarioLines(child, null);
        assertTrue(lines.contains("OK hello dubbo27"), lines.toString());
        String refused = lines.stream().filter(l -> l.startsWith("REFUSED ")).findFirst().orElse("");
        assertTrue(refused.contains("Invalid token! Forbid invoke remote service"), lines.toString());
        // Dubbo prints its own url (token included) before the provider's words; Ferry's words never hold it
        String answer = refused.substring(refused.indexOf("Invalid token!"));
        assertTrue(answer.contains("the consumer sent another token (not shown)"), answer);
        assertFalse(answer.contains("guess"), "the wrong token is not echoed back: " + answer);
        assertEquals(1, users.hellos.get(), "the refused call did not run");
    }

    @Test
    void aFerryConsumerSendsADubbo27ProvidersTokenAndAWrongOneIsForbidden() throws Exception {
        int port;
        try (ServerSocket free = new ServerSocket(0)) {
            port = free.getLocalPort();
        }
        Process child = dubbo27("provider", String.valueOf(port));
        List<String> lines = scenarioLines(child, "TOKEN ");
        String token = lines.stream().filter(l -> l.startsWith("TOKEN ")).map(l -> l.substring(6)).findFirst()
                .orElse(null);
        assertNotNull(token, lines.toString());

        Ferry consumer = ferries.track(Ferry.builder().application(ApplicationConfig.of("ferry-consumer")).build());
        UserService right = consumer.reference(ReferenceConfig.builder(UserService.class)
                .url("dubbo://127.0.0.1:" + port + "?token=" + token).timeout(Duration.ofSeconds(5)).build());
        assertEquals("hello ferry", right.hello("ferry"));
        UserService wrong = consumer.reference(ReferenceConfig.builder(UserService.class)
                .url("dubbo://127.0.0.1:" + port + "?token=guess").timeout(Duration.ofSeconds(5)).build());
        RpcException e = assertThrows(RpcException.class, () -> wrong.hello("intruder"));
        assertEquals(RpcStatus.FORBIDDEN, e.status(), e.toString());
        assertTrue(e.isNotExecuted(), e.toString());
        assertFalse(e.getMessage().contains("guess"), "Dubbo echoes the token; Ferry's exception does not");
    }
}
