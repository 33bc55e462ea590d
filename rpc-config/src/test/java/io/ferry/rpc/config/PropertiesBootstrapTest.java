package io.ferry.rpc.config;

import io.ferry.rpc.config.fixtures.UserService;
import io.ferry.rpc.config.fixtures.UserServiceImpl;
import io.ferry.rpc.config.internal.files.FileBootstrap;
import io.ferry.rpc.config.internal.files.Sources;
import io.ferry.rpc.config.option.Options;
import io.ferry.rpc.config.option.Resolved;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** A provider and a consumer described only by properties files, over real sockets; and what a bad file gets. */
class PropertiesBootstrapTest {
    @TempDir
    Path dir;

    private Path file(String name, String... lines) throws Exception {
        Path path = dir.resolve(name);
        Files.writeString(path, String.join("\n", lines) + "\n");
        return path;
    }

    private Path provider() throws Exception {
        return file("provider.properties",
                "# a provider, from a file only",
                "ferry.application.name = users-provider",
                "ferry.protocol.host = 127.0.0.1",
                "ferry.protocol.port = 0",
                "ferry.protocol.threads = 8",
                "ferry.service." + UserService.class.getName() + ".class = " + UserServiceImpl.class.getName(),
                "ferry.service." + UserService.class.getName() + ".method.hello.timeout = 2s");
    }

    private Path consumer(int port) throws Exception {
        return file("consumer.properties",
                "ferry.application.name: users-consumer",
                "ferry.consumer.retries = 0",
                "ferry.reference.users.interface = " + UserService.class.getName(),
                "ferry.reference.users.url = dubbo://127.0.0.1:" + port,
                "ferry.reference.users.timeout = 3000",
                "ferry.reference.users.method.hello.timeout = 1500ms");
    }

    @Test
    void aProviderAndAConsumerDescribedByFilesMakeARealCall() throws Exception {
        try (Ferry provider = Ferry.fromProperties(provider())) {
            try (Ferry consumer = Ferry.fromProperties(consumer(provider.port()))) {
                UserService users = consumer.reference("users", UserService.class);
                assertEquals("hello ann", users.hello("ann"));
            }
        }
    }

    @Test
    void valuesLandInTheTypedConfigsAndSystemPropertiesOverrideTheFile() throws Exception {
        FileBootstrap.Loaded loaded = FileBootstrap.fromProperties(consumer(20880), Map.of());
        Sources system = Sources.of(Map.of("ferry.reference.users.timeout", "4s", "ferry.transport.nio", "true",
                "ferry.serialization.fastpath", "false"), null); // the two switches are not configuration
        try (Ferry ferry = Ferry.builder().consumer(loaded.consumer()).sources(system).build()) {
            Resolved users = ferry.settingsOf(loaded.references().get("users"));
            assertEquals(Duration.ofSeconds(4), users.get(Options.TIMEOUT), "-D wins over the file");
            assertEquals("-Dferry.reference.users.timeout", users.setting(Options.TIMEOUT, null).where());
            assertEquals(Duration.ofMillis(1500), users.get(Options.TIMEOUT, UserService.class.getMethod("hello",
                    String.class)), "the method's own timeout still wins for its calls");
            assertEquals(0, users.get(Options.RETRIES));
        }
        assertEquals("users-consumer", loaded.application().name());
        FileBootstrap.Loaded served = FileBootstrap.fromProperties(provider(), Map.of());
        assertEquals(8, served.protocol().serverOptions().threads());
        assertEquals(Duration.ofSeconds(2), served.services().get(0).methodTimeouts().get("hello"));
    }

    private void refused(String message, Path file) {
        assertEquals(message, assertThrows(IllegalArgumentException.class,
                () -> Ferry.fromLoaded(FileBootstrap.fromProperties(file, Map.of()), Sources.none()).close())
                .getMessage());
    }

    @Test
    void escapesReadAsJavaUtilPropertiesReadsThem() throws Exception {
        FileBootstrap.Loaded loaded = FileBootstrap.fromProperties(file("escapes.properties",
                "ferry.application.name = caf\\u00e9\\\\bar", "ferry.consumer.timeout = 2\\",
                "  500"), Map.of());
        assertEquals("caf\u00e9\\bar", loaded.application().name());
        assertEquals(Duration.ofMillis(2500), loaded.consumer().timeout(), "a trailing backslash continues");
    }

    @Test
    void everyMistakeOfAFileIsReportedAtOnceInFileOrder() throws Exception {
        refused(String.join("\n",
                "all.properties:1: ferry.consumer.timout: no such option for a consumer (did you mean "
                        + "ferry.consumer.timeout?)",
                "all.properties:2: retries: 'many' (expected: a whole number)",
                "all.properties:3: dubbo.application.owner: a Dubbo key (expected: ferry.application.owner, with the "
                        + "option names of Ferry's reference)",
                "all.properties:4: class com.acme.Missing (expected: a class on the class path)",
                "all.properties:5: ferry.consumer.retries is set again (first at line 2)",
                "all.properties:7: 'garbage' (expected: key=value)"),
                file("all.properties", "ferry.consumer.timout = 100", "ferry.consumer.retries = many",
                        "dubbo.application.owner = ann", "ferry.reference.users.interface = com.acme.Missing",
                        "ferry.consumer.retries = 1", "ferry.application.owner = ann", "garbage"));
    }

    @Test
    void scanBasePackagesExportsTheRpcExportClassesOfAPackage() throws Exception {
        FileBootstrap.Loaded loaded = FileBootstrap.fromProperties(file("scan.properties",
                "ferry.scan.base-packages = io.ferry.rpc.config.annotated"), Map.of());
        assertEquals(io.ferry.rpc.config.annotated.Inventory.class, loaded.services().get(0).interfaceType());
        refused("nothing.properties:1: ferry.scan.base-packages: 'com.acme.nothing': no such package on the class "
                + "path (expected: a package holding the @RpcExport implementations to export)",
                file("nothing.properties", "ferry.scan.base-packages = com.acme.nothing"));
        assertEquals("-Dferry.scan.base-packages (expected: set it in the file that declares the services; -D and "
                + "the class path's ferry.properties only change options)", assertThrows(
                IllegalArgumentException.class, () -> Sources.of(Map.of("ferry.scan.base-packages", "com.acme"),
                        null)).getMessage());
    }

    @Test
    void everyMistakeNamesTheFileLineAndWhatWasExpected() throws Exception {
        refused("bad.properties:2: ferry.consumer.timout: no such option for a consumer (did you mean "
                + "ferry.consumer.timeout?)", file("bad.properties", "ferry.application.name = x",
                "ferry.consumer.timout = 100"));
        refused("bad2.properties:1: timeout: -5ms (expected: > 0)",
                file("bad2.properties", "ferry.consumer.timeout = -5"));
        refused("bad3.properties:1: loadbalance: 'fastest' (expected: one of adaptive, random, roundrobin, "
                + "leastactive, consistenthash, shortestresponse, Counting)",
                file("bad3.properties", "ferry.consumer.loadBalance = fastest"));
        refused("bad4.properties:1: class com.acme.Missing (expected: a class on the class path)",
                file("bad4.properties", "ferry.reference.users.interface = com.acme.Missing"));
        refused("bad5.properties:1: reference 'users' has no interface (expected: "
                + "ferry.reference.users.interface=com.acme.Api)",
                file("bad5.properties", "ferry.reference.users.url = dubbo://127.0.0.1:1"));
        refused("bad6.properties:2: ferry.consumer.retries is set again (first at line 1)",
                file("bad6.properties", "ferry.consumer.retries = 1", "ferry.consumer.retries = 2"));
        refused("bad7.properties:1: class java.lang.String (expected: an implementation of "
                + UserService.class.getName() + ")", file("bad7.properties",
                "ferry.service." + UserService.class.getName() + ".class = java.lang.String"));
        refused("bad8.properties:2: both class and ref (expected: one of them)", file("bad8.properties",
                "ferry.service." + UserService.class.getName() + ".class = " + UserServiceImpl.class.getName(),
                "ferry.service." + UserService.class.getName() + ".ref = users"));
        refused("bad9.properties:1: dubbo.consumer.timeout: a Dubbo key (expected: ferry.consumer.timeout, with the "
                + "option names of Ferry's reference)", file("bad9.properties", "dubbo.consumer.timeout = 100"));
        refused("bad10.properties:1: fery.consumer.timeout: unknown key (did you mean ferry.consumer.timeout?)",
                file("bad10.properties", "fery.consumer.timeout = 100"));
        assertEquals("-Dferry.consumer.retries: retries: 'many' (expected: a whole number)", assertThrows(
                IllegalArgumentException.class, () -> Sources.of(Map.of("ferry.consumer.retries", "many"), null))
                .getMessage());
    }

    @Test
    void dubbosKeysAreRefusedWithTheirReasonsAsXmlRefusesThemNeverAsTypos() throws Exception {
        refused(String.join("\n",
                "dubbo-keys.properties:1: ferry.provider.delay=\"5000\": not supported by Ferry: a service is "
                        + "registered once export() has bound its port, and consumers call it only after a readiness "
                        + "ping; to export later, call Ferry.export then: leave it out (taken, with no effect: -1 or 0)",
                "dubbo-keys.properties:2: ferry.config-center.address: not supported by Ferry: no config center: use "
                        + "ferry.properties or -D",
                "dubbo-keys.properties:3: ferry.metadata-report.address: not supported by Ferry: no metadata center: "
                        + "consumers find what they need in the provider's URL; leave it out",
                "dubbo-keys.properties:4: ferry.protocols.dubbo.port: not supported by Ferry: one protocol per "
                        + "application, set by ferry.protocol.* (expected: ferry.protocol.port)",
                "dubbo-keys.properties:5: ferry.registries.zk1.address: not supported by Ferry: one registry per "
                        + "application, set by ferry.registry.* (expected: ferry.registry.address)",
                "dubbo-keys.properties:6: ferry.application.shutwait: not supported by Ferry: Ferry's shutdown waits "
                        + "are the protocol's shutdownGrace and shutdownTimeout (Dubbo's shutwait): write them on "
                        + "<protocol>",
                "dubbo-keys.properties:7: ferry.application.nosuch: no such option for an application",
                "dubbo-keys.properties:8: ferry.provider.mock: not an option of a provider (it is of consumer, "
                        + "reference, method)",
                "dubbo-keys.properties:9: dubbo.registry.use-as-config-center: a Dubbo key (and as "
                        + "ferry.registry.use-as-config-center=\"true\": not supported by Ferry: no config center: use "
                        + "ferry.properties or -D (taken, with no effect: false))"),
                file("dubbo-keys.properties",
                        "ferry.provider.delay = 5000",
                        "ferry.config-center.address = zookeeper://127.0.0.1:2181",
                        "ferry.metadata-report.address = zookeeper://127.0.0.1:2181",
                        "ferry.protocols.dubbo.port = 20880",
                        "ferry.registries.zk1.address = zookeeper://127.0.0.1:2181",
                        "ferry.application.shutwait = 5000",
                        "ferry.application.nosuch = 1",
                        "ferry.provider.mock = return null",
                        "dubbo.registry.use-as-config-center = true"));
    }

    @Test
    void dubbosValuesThatAskForWhatFerryDoesAreTakenAsInXml() throws Exception {
        FileBootstrap.Loaded loaded = FileBootstrap.fromProperties(file("dubbo.properties",
                "ferry.application.name = shop",
                "ferry.registry.protocol = zookeeper",
                "ferry.registry.address = 127.0.0.1:2181",
                "ferry.registry.id = zk1",
                "ferry.protocol.port = -1",
                "ferry.provider.delay = -1",
                "ferry.provider.register = true",
                "ferry.consumer.retries = -1",
                "ferry.consumer.sticky = false",
                "ferry.protocol.dispather = direct"), Map.of());
        assertEquals("zookeeper://127.0.0.1:2181", loaded.registry().address(), "ferry.registry.protocol, as "
                + "<registry protocol>");
        assertEquals(0, loaded.protocol().settings().get(Options.PORT));
        assertEquals(0, loaded.consumer().retries());
        assertEquals(null, FileBootstrap.fromProperties(file("direct.properties",
                "ferry.registry.address = N/A"), Map.of()).registry(), "Dubbo's N/A: no registry");
    }
}
