package io.ferry.rpc.config;

import io.ferry.rpc.RpcException;
import io.ferry.rpc.RpcStatus;
import io.ferry.rpc.config.fixtures.Named;
import io.ferry.rpc.config.fixtures.WhoAmI;
import io.ferry.rpc.config.internal.files.FileBootstrap;
import io.ferry.rpc.config.internal.files.Sources;
import io.ferry.rpc.option.RegistryOptionKeys;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

/**
 * The embedded ZooKeeper only where it was asked for: {@code embedded=true} in the address (through code, XML,
 * properties and -D) or {@link RegistryConfig#embedded()} hosts one; a plain address never does, the default one
 * included, and the opt-in on another host is refused naming it. Real servers on 127.0.0.1; the hosting tests use a
 * free port, since 2181 may belong to other processes of this machine.
 */
class EmbeddedRegistryTest {
    private static final String REFUSED = "embedded=true: 10.0.0.5:2181 is not a loopback address (expected: "
            + "127.0.0.1, another 127.x.x.x or localhost; an embedded ZooKeeper serves this machine only: for "
            + "10.0.0.5 run a ZooKeeper there and leave out embedded=true)";

    @TempDir
    Path dir;

    @Test
    void thePlainDefaultAddressWithNothingListeningFailsAsAnyUnreachableRegistryAndHostsNothing() throws Exception {
        assumeFalse(listens(2181), "something listens on 127.0.0.1:2181 (another process of this machine)");
        RegistryConfig plain = RegistryConfig.builder("zookeeper://127.0.0.1:2181")
                .option(RegistryOptionKeys.CONNECTION_TIMEOUT, Duration.ofMillis(500))
                .option(RegistryOptionKeys.FILE, dir.resolve("plain.cache").toString())
                .option(RegistryOptionKeys.CHECK, false).build(); // to reach the reference's own error
        assertEquals("zookeeper://127.0.0.1:2181", plain.toString());
        Ferry consumer = Ferry.builder().shutdownHook(false).registry(plain)
                .consumer(ConsumerConfig.builder().connectTimeout(Duration.ofMillis(500)).build()).build();
        try {
            RpcException e = assertThrows(RpcException.class,
                    () -> consumer.reference(ReferenceConfig.builder(WhoAmI.class).build()));
            assertEquals(RpcStatus.NO_PROVIDER, e.status(), "as for any address where no ZooKeeper answers");
            assertTrue(e.getMessage().contains("ZooKeeper 127.0.0.1:2181, unreachable for"), e.getMessage());
            assertFalse(listens(2181), "this process started no server on 2181");
        } finally {
            consumer.close();
        }
        assertFalse(listens(2181));
    }

    @Test
    void embeddedTrueInCodeHostsAServerThatProvidersAndConsumersShare() throws Exception {
        int port = freePort();
        RegistryConfig registry = RegistryConfig.of("zookeeper://localhost:" + port + "?embedded=true", null, null,
                RegistryConfig.NO_CACHE_FILE);
        assertEquals("zookeeper://127.0.0.1:" + port + "?embedded=true", registry.toString());
        try (Ferry provider = Ferry.builder().shutdownHook(false).registry(registry)
                .protocol(ProtocolConfig.builder().host("127.0.0.1").port(0).build()).build();
             Ferry consumer = Ferry.builder().shutdownHook(false).registry(registry).build()) {
            provider.export(ServiceConfig.builder(WhoAmI.class, new Named("hosted")).build());
            assertTrue(listens(port), "the provider's process hosts ZooKeeper on the opted-in address");
            assertEquals("hosted", consumer.reference(ReferenceConfig.builder(WhoAmI.class).build()).who());
        }
        assertFalse(listens(port), "and stops it when its last registry closes");
    }

    @Test
    void registryConfigEmbeddedIsTheOptInOnTheDefaultAddress() {
        // it hosts as every opt-in does (above, on a free port): 2181 itself may belong to another process here
        RegistryConfig embedded = RegistryConfig.embedded();
        assertTrue(embedded.options().embedded());
        assertEquals("127.0.0.1:2181", embedded.options().connectString());
        assertEquals("zookeeper://127.0.0.1:2181?embedded=true", embedded.toString());
        assertFalse(RegistryConfig.of("zookeeper://127.0.0.1:2181").options().embedded());
    }

    @Test
    void embeddedTrueInAnXmlFileHostsAServer() throws Exception {
        int port = freePort();
        Path file = Files.writeString(dir.resolve("provider.xml"), """
                <ferry:config xmlns:ferry="http://ferry.io/schema/ferry">
                  <ferry:registry protocol="zookeeper" address="127.0.0.1:%d?embedded=true" file="none"/>
                  <ferry:protocol host="127.0.0.1" port="0"/>
                  <ferry:service interface="%s" class="%s"/>
                </ferry:config>
                """.formatted(port, WhoAmI.class.getName(), XmlNamed.class.getName()));
        try (Ferry provider = Ferry.fromLoaded(FileBootstrap.fromXml(file, Map.of()), Sources.none())) {
            assertEquals("zookeeper://127.0.0.1:" + port + "?embedded=true", provider.registryConfig().toString());
            assertTrue(listens(port), "the file's provider hosts ZooKeeper");
        }
        assertFalse(listens(port));
    }

    /** A service implementation a file can name by class. */
    public static final class XmlNamed extends Named {
        public XmlNamed() {
            super("xml");
        }
    }

    @Test
    void embeddedTrueParsesInPropertiesAndSystemProperties() throws Exception {
        Path file = Files.writeString(dir.resolve("ferry.properties"),
                "ferry.registry.address = zookeeper://127.0.0.1:2999?embedded=true\n");
        RegistryConfig fromFile = FileBootstrap.fromProperties(file, Map.of()).registry();
        assertTrue(fromFile.options().embedded());
        assertEquals("zookeeper://127.0.0.1:2999?embedded=true", fromFile.toString());

        Sources system = Sources.of(Map.of("ferry.registry.address", "zookeeper://127.0.0.1:2998?embedded=true"),
                null);
        try (Ferry ferry = Ferry.builder().shutdownHook(false).sources(system)
                .registry(RegistryConfig.of("zookeeper://10.0.0.1:2181")).build()) {
            assertEquals("zookeeper://127.0.0.1:2998?embedded=true", ferry.registryConfig().toString(),
                    "-D wins over the code's address, opt-in and all");
        }
    }

    @Test
    void embeddedTrueOnAnotherHostIsRefusedNamingTheOptionInEveryFrontEnd() throws Exception {
        assertEquals(REFUSED, assertThrows(IllegalArgumentException.class,
                () -> RegistryConfig.of("zookeeper://10.0.0.5:2181?embedded=true")).getMessage());

        Path xml = Files.writeString(dir.resolve("bad.xml"), """
                <ferry:config xmlns:ferry="http://ferry.io/schema/ferry">
                  <ferry:registry address="zookeeper://10.0.0.5:2181?embedded=true"/>
                </ferry:config>
                """);
        assertEquals("bad.xml:2: <registry>: " + REFUSED, assertThrows(IllegalArgumentException.class,
                () -> FileBootstrap.fromXml(xml, Map.of())).getMessage());

        Path properties = Files.writeString(dir.resolve("bad.properties"),
                "ferry.registry.address = zookeeper://10.0.0.5:2181?embedded=true\n");
        assertEquals("bad.properties:1: " + REFUSED, assertThrows(IllegalArgumentException.class,
                () -> FileBootstrap.fromProperties(properties, Map.of())).getMessage());

        Sources system = Sources.of(Map.of("ferry.registry.address", "zookeeper://10.0.0.5:2181?embedded=true"),
                null);
        assertEquals("-Dferry.registry.address: " + REFUSED, assertThrows(IllegalArgumentException.class,
                () -> Ferry.builder().shutdownHook(false).sources(system).build()).getMessage());
    }

    /** A port nothing listens on: the opt-in's role needs a fixed port that every process agrees on. */
    private static int freePort() throws IOException {
        try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return probe.getLocalPort();
        }
    }

    private static boolean listens(int port) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", port), 500);
            return true;
        } catch (IOException nothing) {
            return false;
        }
    }
}
