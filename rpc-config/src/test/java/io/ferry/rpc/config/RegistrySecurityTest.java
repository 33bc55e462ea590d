package io.ferry.rpc.config;

import io.ferry.rpc.config.fixtures.UserService;
import io.ferry.rpc.config.fixtures.UserServiceImpl;
import io.ferry.rpc.config.fixtures.ZooKeeperFixture;
import io.ferry.rpc.config.internal.files.FileBootstrap;
import io.ferry.rpc.config.internal.files.Sources;
import io.ferry.rpc.option.RegistryOptionKeys;
import io.ferry.rpc.registry.EmbeddedZooKeeper;
import io.ferry.rpc.registry.RegistryRefusedException;
import io.ferry.rpc.testkit.TestPki;
import io.ferry.rpc.testkit.ZooKeeperServerTls;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The registry's security through the bootstrap and its files: digest credentials end to end, what a consumer or
 * provider without them is told at start, and ZooKeeper over TLS.
 */
class RegistrySecurityTest {
    private static final String PASSWORD = "s3cret-Pa55";
    private static final ClassLoader NO_DEFAULTS = new URLClassLoader(new URL[0], null);

    @RegisterExtension
    final ZooKeeperFixture zk = new ZooKeeperFixture();
    @TempDir
    Path dir;

    private Ferry provider(RegistryConfig registry) {
        Ferry ferry = zk.track(Ferry.builder().application(ApplicationConfig.of("secured-provider"))
                .protocol(ProtocolConfig.builder().host("127.0.0.1").port(0).build()).registry(registry).build());
        ferry.export(ServiceConfig.builder(UserService.class, new UserServiceImpl()).build());
        return ferry;
    }

    private UserService consumer(RegistryConfig registry) {
        Ferry ferry = zk.track(Ferry.builder().application(ApplicationConfig.of("secured-consumer"))
                .registry(registry).build());
        return ferry.reference(ReferenceConfig.builder(UserService.class).timeout(Duration.ofSeconds(3)).build());
    }

    @Test
    void aProviderAndAConsumerWithTheCredentialsFindAndCallEachOther() {
        provider(zk.registry("p.cache", b -> b.credentials("shop", PASSWORD)));
        assertEquals("hello ann", consumer(zk.registry("c.cache", b -> b.credentials("shop", PASSWORD)))
                .hello("ann"));
    }

    @Test
    void aConsumerWithTheWrongPasswordFailsAtStartNamingTheRegistryTheNodeAndWhatToCheck() {
        provider(zk.registry("p.cache", b -> b.credentials("shop", PASSWORD)));
        RegistryRefusedException e = assertThrows(RegistryRefusedException.class,
                () -> consumer(zk.registry("c.cache", b -> b.credentials("shop", "wrong"))));
        assertTrue(e.getMessage().startsWith("ZooKeeper zookeeper://127.0.0.1:" + zk.server().port()
                + " refused to read /dubbo/" + UserService.class.getName() + "/providers (NoAuth"), e.getMessage());
        assertTrue(e.getMessage().contains("check the registry's username and password"), e.getMessage());
        assertFalse(e.getMessage().contains("wrong"), e.getMessage());
    }

    @Test
    void aProviderRefusedByTheRegistryFailsAtExportAndServesNothingUnannounced() {
        provider(zk.registry("p.cache", b -> b.credentials("shop", PASSWORD)));
        Ferry other = zk.track(Ferry.builder().application(ApplicationConfig.of("intruder"))
                .protocol(ProtocolConfig.builder().host("127.0.0.1").port(0).build())
                .registry(zk.registry("o.cache", b -> b.credentials("intruder", PASSWORD))).build());
        RegistryRefusedException e = assertThrows(RegistryRefusedException.class,
                () -> other.export(ServiceConfig.builder(UserService.class, new UserServiceImpl()).build()));
        assertTrue(e.getMessage().contains("refused to create /dubbo/" + UserService.class.getName()
                + "/providers/dubbo%3A%2F%2F127.0.0.1"), e.getMessage());
        UserService direct = zk.track(Ferry.builder().build()).reference(ReferenceConfig.builder(UserService.class)
                .url("dubbo://127.0.0.1:" + other.port()).timeout(Duration.ofSeconds(3)).build());
        assertThrows(RuntimeException.class, () -> direct.hello("ann"), "not exported after the refusal");
    }

    @Test
    void filesTakeDubbosUsernameAndPasswordAttributesAndNeverShowThePassword() throws Exception {
        String address = "zookeeper://127.0.0.1:" + zk.server().port();
        Path xml = Files.writeString(dir.resolve("provider.xml"), """
                <?xml version="1.0" encoding="UTF-8"?>
                <ferry:config xmlns:ferry="http://ferry.io/schema/ferry">
                  <ferry:application name="users-provider"/>
                  <ferry:registry address="%s" username="shop" password="%s" file="none"/>
                  <ferry:protocol name="dubbo" host="127.0.0.1" port="0"/>
                  <ferry:service interface="%s" class="%s"/>
                </ferry:config>
                """.formatted(address, PASSWORD, UserService.class.getName(), UserServiceImpl.class.getName()));
        FileBootstrap.Loaded loaded = FileBootstrap.fromXml(xml, Map.of());
        assertEquals("shop", loaded.registry().settings().get(RegistryOptionKeys.USERNAME));
        assertFalse((loaded.registry() + " " + loaded.registry().settings() + " " + loaded.registrySettings())
                .contains(PASSWORD), loaded.registrySettings().toString());
        zk.track(Ferry.fromLoaded(loaded, Sources.of(Map.of(), NO_DEFAULTS)));

        Path properties = Files.writeString(dir.resolve("consumer.properties"), String.join("\n",
                "ferry.registry.address = " + address,
                "ferry.registry.username = shop",
                "ferry.registry.password = " + PASSWORD,
                "ferry.registry.file = none",
                "ferry.reference.users.interface = " + UserService.class.getName(),
                "ferry.reference.users.timeout = 3000"));
        Ferry consumer = zk.track(Ferry.fromLoaded(FileBootstrap.fromProperties(properties, Map.of()),
                Sources.of(Map.of(), NO_DEFAULTS)));
        assertEquals("hello ann", consumer.reference("users", UserService.class).hello("ann"));

        RegistryRefusedException e = assertThrows(RegistryRefusedException.class, () -> zk.track(Ferry.fromLoaded(
                FileBootstrap.fromProperties(properties, Map.of()), Sources.of(Map.of("ferry.registry.password",
                        "wrong"), NO_DEFAULTS))).reference("users", UserService.class), "-D changes the password");
        assertTrue(e.getMessage().contains("username 'shop'"), e.getMessage());
    }

    @Test
    void theRegistryOverTlsWorksEndToEnd() {
        TestPki pki = TestPki.create(dir, "ferry-zk");
        String key = pki.keyAndChain(pki.client("ferry"), "ferry-keystore.pem").toString();
        try (ZooKeeperServerTls serverTls = ZooKeeperServerTls.open(pki);
             EmbeddedZooKeeper secure = EmbeddedZooKeeper.startSecure("127.0.0.1", 0, Duration.ofMillis(500))) {
            RegistryConfig.Builder registry = RegistryConfig.builder("zookeeper://127.0.0.1:" + secure.port())
                    .zookeeperTls(pki.caCertificate().toString()).zookeeperKeyCertChain(key)
                    .credentials("shop", PASSWORD).option(RegistryOptionKeys.FILE, RegistryOptionKeys.NO_FILE);
            try (Ferry provider = Ferry.builder().application(ApplicationConfig.of("tls-provider"))
                    .protocol(ProtocolConfig.builder().host("127.0.0.1").port(0).build()).registry(registry.build())
                    .build();
                 Ferry consumer = Ferry.builder().application(ApplicationConfig.of("tls-consumer"))
                         .registry(registry.build()).build()) {
                provider.export(ServiceConfig.builder(UserService.class, new UserServiceImpl()).build());
                assertEquals("hello tls", consumer.reference(ReferenceConfig.builder(UserService.class)
                        .timeout(Duration.ofSeconds(3)).build()).hello("tls"));
            }
        }
    }
}
