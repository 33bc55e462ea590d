package io.ferry.rpc.config;

import io.ferry.rpc.config.extension.Extensions;
import io.ferry.rpc.config.extension.RegistryProvider;
import io.ferry.rpc.config.fixtures.FerryFixture;
import io.ferry.rpc.config.fixtures.Named;
import io.ferry.rpc.config.fixtures.WhoAmI;
import io.ferry.rpc.config.fixtures.extensions.Recorded;
import io.ferry.rpc.config.internal.files.Sources;
import io.ferry.rpc.option.OptionValues;
import io.ferry.rpc.option.RegistryOptionKeys;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Registries found by the scheme of their address, like balancers, clusters and filters: the test jar registers a
 * {@code memory://} registry (src/test/resources/META-INF/services) beside Ferry's {@code zookeeper://} one, and a
 * provider and a consumer Ferry of this JVM find each other through it and call over 127.0.0.1.
 */
class RegistryExtensionsTest {
    private static final String SCHEMES = "zookeeper://, memory://";

    @RegisterExtension
    final FerryFixture ferries = new FerryFixture();

    @BeforeEach
    void clear() {
        Recorded.EVENTS.clear();
    }

    @Test
    void ferrysOwnZooKeeperIsRegisteredTheSameWayAndListedFirst() {
        assertEquals(List.of("zookeeper", "memory"), Extensions.names(RegistryProvider.class));
    }

    @Test
    void aProviderAndAConsumerFindEachOtherThroughARegistryAJarRegisters() {
        String address = "memory://127.0.0.1:1/in-code";
        Ferry provider = ferries.track(Ferry.builder().shutdownHook(false).application(ApplicationConfig.of("shop"))
                .protocol(ProtocolConfig.builder().host("127.0.0.1").port(0).build())
                .registry(RegistryConfig.of(address, Duration.ofSeconds(7), (Duration) null)).build());
        provider.export(ServiceConfig.builder(WhoAmI.class, new Named("p1")).build());
        Ferry consumer = ferries.track(Ferry.builder().shutdownHook(false).application(ApplicationConfig.of("till"))
                .registry(RegistryConfig.of(address)).build());

        WhoAmI who = consumer.reference(ReferenceConfig.builder(WhoAmI.class).timeout(Duration.ofSeconds(5))
                .build());

        assertEquals("p1", who.who());
        assertTrue(Recorded.EVENTS.containsAll(List.of("opened " + address + " for shop, session 7000 ms",
                "opened " + address + " for till, session 60000 ms")), Recorded.EVENTS.toString());
        List<String> pushes = Recorded.EVENTS.stream().filter(e -> e.startsWith("pushed")).toList();
        assertTrue(pushes.contains("pushed 1 on ferry-scheduler"), pushes.toString());
        assertTrue(pushes.stream().allMatch(e -> e.endsWith(" on ferry-scheduler")),
                "the registry's work runs on the Ferry's one scheduler: " + pushes);
    }

    @Test
    void filesNameTheRegistryByItsAddressAndGiveItTheirSettings() throws Exception {
        String address = "memory://127.0.0.1:1/in-files";
        Path xml = ferries.file("provider.xml", "<ferry:config xmlns:ferry=\"http://ferry.io/schema/ferry\">",
                "  <ferry:application name=\"shop\"/>",
                "  <ferry:registry protocol=\"memory\" address=\"127.0.0.1:1/in-files\" session=\"3000\"/>",
                "  <ferry:protocol host=\"127.0.0.1\" port=\"0\"/>",
                "  <ferry:service interface=\"" + WhoAmI.class.getName() + "\" class=\""
                        + Answering.class.getName() + "\"/>",
                "</ferry:config>");
        ferries.track(Ferry.fromXml(xml));
        Path properties = ferries.file("consumer.properties", "ferry.application.name = till",
                "ferry.registry.address = " + address, "ferry.registry.session = 4s",
                "ferry.reference.who.interface = " + WhoAmI.class.getName(), "ferry.reference.who.timeout = 5000");

        WhoAmI who = ferries.track(Ferry.fromProperties(properties)).reference("who", WhoAmI.class);

        assertEquals("from a file", who.who());
        assertTrue(Recorded.EVENTS.containsAll(List.of("opened " + address + " for shop, session 3000 ms",
                "opened " + address + " for till, session 4000 ms")), Recorded.EVENTS.toString());
    }

    /** The service the XML provider exports. */
    public static final class Answering extends Named {
        public Answering() {
            super("from a file");
        }
    }

    @Test
    void anAddressOfAnotherSchemeIsCarriedAsWrittenWithItsSettings() {
        RegistryConfig config = RegistryConfig.of("memory://10.0.0.1:7?token=x", OptionValues.none()
                .with(RegistryOptionKeys.CONNECTION_TIMEOUT, Duration.ofSeconds(2)));
        assertEquals("memory://10.0.0.1:7?token=x", config.address());
        assertEquals("memory", config.scheme());
        assertEquals(Duration.ofSeconds(2), config.settings().get(RegistryOptionKeys.CONNECTION_TIMEOUT));
        assertEquals(RegistryOptionKeys.SESSION_TIMEOUT.defaultValue(),
                config.settings().get(RegistryOptionKeys.SESSION_TIMEOUT), "not set: the declared default");
        assertEquals("registry: memory://10.0.0.1:7?token=x is not a ZooKeeper address (expected: "
                + "zookeeper://host:port; read address() and settings() for another registry)",
                assertThrows(IllegalStateException.class, config::options).getMessage());
        assertEquals("sessionTimeout: 0ms (expected: > 0)", assertThrows(IllegalArgumentException.class,
                () -> RegistryConfig.of("memory://h:1", Duration.ZERO, (Duration) null)).getMessage(),
                "settings are checked through their declarations, whatever the registry");
    }

    @Test
    void anUnknownSchemeFailsAtStartNamingWhereAndTheSchemesThereAre() throws Exception {
        assertEquals("address: 'nope://127.0.0.1:1' (expected: one of " + SCHEMES + ")",
                assertThrows(IllegalArgumentException.class, () -> RegistryConfig.of("nope://127.0.0.1:1"))
                        .getMessage());
        assertEquals("address: '127.0.0.1:2181' (expected: one of " + SCHEMES + ")",
                assertThrows(IllegalArgumentException.class, () -> RegistryConfig.of("127.0.0.1:2181"))
                        .getMessage(), "an address without a scheme");

        Path xml = ferries.file("bad.xml", "<ferry:config xmlns:ferry=\"http://ferry.io/schema/ferry\">",
                "  <ferry:registry address=\"nope://127.0.0.1:1\"/>", "</ferry:config>");
        assertEquals("bad.xml:2: <registry>: address: 'nope://127.0.0.1:1' (expected: one of " + SCHEMES + ")",
                assertThrows(IllegalArgumentException.class, () -> Ferry.fromXml(xml)).getMessage());

        Path dubboStyle = ferries.file("dubbo.xml", "<ferry:config xmlns:ferry=\"http://ferry.io/schema/ferry\">",
                "  <ferry:registry protocol=\"nope\" address=\"127.0.0.1:1\"/>", "</ferry:config>");
        assertEquals("dubbo.xml:2: <registry>: address: 'nope://127.0.0.1:1' (expected: one of " + SCHEMES + ")",
                assertThrows(IllegalArgumentException.class, () -> Ferry.fromXml(dubboStyle)).getMessage());

        Path properties = ferries.file("bad.properties", "ferry.application.name = shop",
                "ferry.registry.address = nope://127.0.0.1:1");
        assertEquals("bad.properties:2: address: 'nope://127.0.0.1:1' (expected: one of " + SCHEMES + ")",
                assertThrows(IllegalArgumentException.class, () -> Ferry.fromProperties(properties)).getMessage());

        Sources system = Sources.of(Map.of("ferry.registry.address", "nope://127.0.0.1:1"), null);
        assertEquals("-Dferry.registry.address: address: 'nope://127.0.0.1:1' (expected: one of " + SCHEMES + ")",
                assertThrows(IllegalArgumentException.class,
                        () -> Ferry.builder().shutdownHook(false).sources(system).build()).getMessage());
    }
}
