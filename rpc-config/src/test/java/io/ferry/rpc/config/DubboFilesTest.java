package io.ferry.rpc.config;

import io.ferry.rpc.RpcContext;
import io.ferry.rpc.config.annotated.Inventory;
import io.ferry.rpc.config.fixtures.DemoService;
import io.ferry.rpc.config.fixtures.ZooKeeperFixture;
import io.ferry.rpc.config.internal.files.FileBootstrap;
import io.ferry.rpc.config.internal.files.Sources;
import io.ferry.rpc.registry.ServiceUrl;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A Dubbo application's files as Dubbo's documentation and samples write them, ported by their namespace and
 * prefix alone ({@code xml/dubbo-app-*.xml}): the provider started by {@code FerryMain} in a process of its own,
 * the consumer calling it through ZooKeeper, the metadata in the registry as Dubbo writes it; and a file with five
 * mistakes, all reported by one run.
 */
@Timeout(120) // a child that never says it started must fail the test, not hang it
class DubboFilesTest {
    private static final ClassLoader NO_DEFAULTS = new URLClassLoader(new URL[0], null);

    @RegisterExtension
    final ZooKeeperFixture zk = new ZooKeeperFixture();

    @TempDir
    Path dir;

    private final List<Process> children = new ArrayList<>();

    @AfterEach
    void stopChildren() throws InterruptedException {
        for (Process child : children) {
            child.destroyForcibly();
            child.waitFor(10, TimeUnit.SECONDS);
        }
    }

    private Path fixture(String name) throws IOException {
        Path path = dir.resolve(name);
        try (InputStream in = getClass().getResourceAsStream("xml/" + name)) {
            Files.copy(in, path);
        }
        return path;
    }

    /** The files keep Dubbo's addresses; the test points them at its own ZooKeeper and a free port, as -D does. */
    private Map<String, String> overrides() {
        Map<String, String> overrides = new HashMap<>();
        overrides.put("ferry.registry.address", "zookeeper://127.0.0.1:" + zk.server().port());
        overrides.put("ferry.registry.file", "none");
        overrides.put("ferry.protocol.host", "127.0.0.1");
        overrides.put("ferry.protocol.port", "0");
        return overrides;
    }

    /** {@code FerryMain file} in a JVM of its own, with {@code overrides} as -D. */
    private Process ferryMain(Path file, Map<String, String> overrides) throws IOException {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                .toString(), "-Xmx256m", "-XX:TieredStopAtLevel=1", "-cp", System.getProperty("java.class.path")));
        overrides.forEach((key, value) -> command.add("-D" + key + "=" + value));
        command.add(FerryMain.class.getName());
        command.add(file.toString());
        // its log lines go to a file, which the pipe would block on once full
        Process child = new ProcessBuilder(command).redirectError(dir.resolve(file.getFileName() + ".err").toFile())
                .start();
        children.add(child);
        return child;
    }

    @Test
    void aDubboApplicationsFilesStartWithFerryMainAndServeRealCallsThroughZooKeeper() throws Exception {
        Process provider = ferryMain(fixture("dubbo-app-provider.xml"), overrides());
        BufferedReader out = new BufferedReader(new InputStreamReader(provider.getInputStream(),
                StandardCharsets.UTF_8));
        String started = out.readLine(); // FerryMain says so once it has exported and registered
        assertTrue(started != null && started.startsWith("Ferry started from ") && started.contains("serving on port"),
                "FerryMain said: " + started + "; its log: " + Files.readString(dir.resolve(
                        "dubbo-app-provider.xml.err")));

        // the metadata of <application>, under Dubbo's keys, in the provider's URL
        ServiceUrl demo = zk.registeredProviders(DemoService.class).get(0);
        assertEquals("demo-provider", demo.parameters().get("application"));
        assertEquals("1.2.0", demo.parameters().get("application.version"));
        assertEquals("ann", demo.parameters().get("owner"));
        assertEquals("shop", demo.parameters().get("organization"));
        assertEquals("backend", demo.parameters().get("architecture"));
        assertEquals("test", demo.parameters().get("environment"));
        // <provider retries>, <service loadbalance weight>: settings for its consumers, as Dubbo writes them
        assertEquals("0", demo.parameters().get("retries"));
        assertEquals("roundrobin", demo.parameters().get("loadbalance"));
        assertEquals("200", demo.parameters().get("weight"));
        // <annotation package>: the @RpcExport class of the package, with its @RpcService version
        ServiceUrl inventory = zk.registeredProviders(Inventory.class).get(0);
        assertEquals("2.1", inventory.parameters().get("version"));

        Map<String, String> consumerOverrides = overrides();
        consumerOverrides.put("ferry.consumer.check", "true"); // wait for the provider, which the file does not
        Ferry consumer = zk.track(Ferry.fromLoaded(FileBootstrap.fromXml(fixture("dubbo-app-consumer.xml"), Map.of()),
                Sources.of(consumerOverrides, NO_DEFAULTS)));
        DemoService greeter = consumer.reference("demoService", DemoService.class);
        assertNull(greeter.sayHello("world"), "async=\"true\": the call returns at once");
        CompletableFuture<String> hello = RpcContext.current().future();
        assertEquals("Hello world", hello.get(10, TimeUnit.SECONDS));
        assertEquals(5, consumer.reference("inventory", Inventory.class).stock("apple"), "a synchronous call");
    }

    @Test
    void fiveMistakesOfFiveKindsAreReportedByOneRunInFileOrderWithTheirLines() throws Exception {
        Process provider = ferryMain(fixture("dubbo-app-mistakes.xml"), overrides());
        assertTrue(provider.waitFor(60, TimeUnit.SECONDS));
        String stderr = Files.readString(dir.resolve("dubbo-app-mistakes.xml.err"));
        assertEquals(2, provider.exitValue(), stderr);
        assertEquals(String.join("\n",
                "dubbo-app-mistakes.xml:9: <application> enviroment: no such attribute (did you mean environment?)",
                "dubbo-app-mistakes.xml:10: <registry>: check: 'no' (expected: true or false)",
                "dubbo-app-mistakes.xml:12: <provider> delay=\"5000\": not supported by Ferry: a service is "
                        + "registered once export() has bound its port, and consumers call it only after a readiness "
                        + "ping; to export later, call Ferry.export then: leave it out (taken, with no effect: -1 or "
                        + "0)",
                "dubbo-app-mistakes.xml:13: <monitor>: not supported by Ferry: no monitor center: calls are measured "
                        + "with Micrometer (Observability in code; see Operations) and shown by the admin port",
                "dubbo-app-mistakes.xml:15: <service interface=\"io.ferry.rpc.config.fixtures.DemoService\">: ref "
                        + "demoServise: no such bean (did you mean demoService?)"), stderr.strip());
    }
}
