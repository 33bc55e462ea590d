package io.ferry.rpc.registry;

import io.ferry.rpc.testkit.StandardErrorLines;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.data.ACL;
import org.apache.zookeeper.data.Id;
import org.apache.zookeeper.server.auth.DigestAuthenticationProvider;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Digest credentials against a real ZooKeeper in this process: what Ferry's nodes let others do, and how a client
 * without the right credentials learns it at start.
 */
class ZookeeperCredentialsTest {
    private static final String SERVICE = "demo.Greeter";
    private static final String PROVIDERS = "/dubbo/" + SERVICE + "/providers";
    private static final String PASSWORD = "s3cret-Pa55";
    private static final String WRONG = "wr0ng-Pa55";

    @TempDir
    Path tmp;
    private EmbeddedZooKeeper zk;
    private final List<AutoCloseable> closeables = new ArrayList<>();

    @BeforeEach
    void startZooKeeper() {
        zk = EmbeddedZooKeeper.start("127.0.0.1", 0, Duration.ofMillis(200));
    }

    @AfterEach
    void stop() throws Exception {
        for (AutoCloseable c : closeables) {
            c.close();
        }
        zk.close();
    }

    private ZookeeperRegistry registry(String cacheName, String username, String password) {
        RegistryOptions.Builder options = RegistryOptions.builder().address("127.0.0.1", zk.port())
                .sessionTimeout(Duration.ofSeconds(2)).connectionTimeout(Duration.ofSeconds(2))
                .cacheFile(tmp.resolve(cacheName));
        if (username != null) {
            options.credentials(username, password);
        }
        ZookeeperRegistry registry = new ZookeeperRegistry(options.build());
        closeables.add(registry);
        return registry;
    }

    private static ServiceUrl provider(int port) {
        return new ServiceUrl("dubbo", "127.0.0.1", port, SERVICE, Map.of("interface", SERVICE, "methods", "hello",
                "side", "provider"));
    }

    /** A plain ZooKeeper client, with the digest credentials given (none for null). */
    private ZooKeeper raw(String credentials) throws Exception {
        CountDownLatch connected = new CountDownLatch(1);
        ZooKeeper raw = new ZooKeeper(zk.connectString(), 4000, e -> {
            if (e.getState() == org.apache.zookeeper.Watcher.Event.KeeperState.SyncConnected) {
                connected.countDown();
            }
        });
        closeables.add(raw::close);
        assertTrue(connected.await(10, TimeUnit.SECONDS));
        if (credentials != null) {
            raw.addAuthInfo("digest", credentials.getBytes(StandardCharsets.UTF_8));
        }
        return raw;
    }

    @Test
    void aConsumerWithTheCredentialsFindsAProviderThatHasThem() {
        registry("p.cache", "ferry", PASSWORD).register(provider(20001));
        List<List<ProviderInstance>> lists = new CopyOnWriteArrayList<>();
        registry("c.cache", "ferry", PASSWORD).subscribe(new ServiceKey(SERVICE, "", ""), lists::add);
        Awaitility.await().atMost(Duration.ofSeconds(15)).until(() -> !lists.isEmpty()
                && lists.get(lists.size() - 1).size() == 1);
        assertEquals(20001, lists.get(lists.size() - 1).get(0).port());
    }

    @Test
    void everyNodeFerryCreatesIsTheCredentialsAloneAsDubboMakesThem() throws Exception {
        ServiceUrl url = provider(20001);
        registry("p.cache", "ferry", PASSWORD).register(url);
        ZooKeeper owner = raw("ferry:" + PASSWORD);
        Id ferry = new Id("digest", DigestAuthenticationProvider.generateDigest("ferry:" + PASSWORD));
        for (String node : List.of("/dubbo", "/dubbo/" + SERVICE, PROVIDERS, PROVIDERS + "/" + url.encoded())) {
            assertEquals(List.of(new ACL(ZooDefs.Perms.ALL, ferry)), owner.getACL(node, null),
                    node + ": CREATOR_ALL, nothing for anyone else, not even reading");
        }
    }

    @Test
    void aClientWithoutTheCredentialsCanNeitherDeleteNorOverwriteNorForgeAProvider() throws Exception {
        ServiceUrl url = provider(20001);
        registry("p.cache", "ferry", PASSWORD).register(url);
        String node = PROVIDERS + "/" + url.encoded();
        for (ZooKeeper other : List.of(raw(null), raw("ferry:" + WRONG), raw("mallory:" + PASSWORD))) {
            assertThrows(KeeperException.NoAuthException.class, () -> other.delete(node, -1), "delete");
            assertThrows(KeeperException.NoAuthException.class, () -> other.setData(node, new byte[] {1}, -1),
                    "overwrite");
            assertThrows(KeeperException.NoAuthException.class, () -> other.create(PROVIDERS + "/"
                    + provider(6666).encoded(), new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.EPHEMERAL),
                    "add a forged provider");
            assertThrows(KeeperException.NoAuthException.class, () -> other.getChildren(PROVIDERS, false),
                    "list the providers");
        }
        assertTrue(raw("ferry:" + PASSWORD).exists(node, false) != null, "still registered");
    }

    @Test
    void aConsumerWithTheWrongPasswordFailsAtStartNamingTheRegistryTheNodeAndTheCredentials() {
        registry("p.cache", "ferry", PASSWORD).register(provider(20001));
        ZookeeperRegistry consumer = registry("c.cache", "ferry", WRONG);
        List<List<ProviderInstance>> lists = new CopyOnWriteArrayList<>();
        RegistryRefusedException refused = assertThrows(RegistryRefusedException.class,
                () -> consumer.subscribe(new ServiceKey(SERVICE, "", ""), lists::add));
        String message = refused.getMessage();
        assertTrue(message.contains("zookeeper://127.0.0.1:" + zk.port()), message);
        assertTrue(message.contains("refused to read " + PROVIDERS + " (NoAuth"), message);
        assertTrue(message.contains("username 'ferry'") && message.contains("check the registry's username and "
                + "password"), message);
        assertFalse(message.contains(WRONG) || message.contains(PASSWORD), "no password: " + message);
        assertEquals(List.of(), lists, "no list at all, not an empty one");
    }

    @Test
    void aConsumerWithoutCredentialsIsToldToSetThem() {
        registry("p.cache", "ferry", PASSWORD).register(provider(20001));
        RegistryRefusedException refused = assertThrows(RegistryRefusedException.class,
                () -> registry("c.cache", null, null).subscribe(new ServiceKey(SERVICE, "", ""), list -> { }));
        assertTrue(refused.getMessage().contains("set the registry's username and password"), refused.getMessage());
    }

    @Test
    void aProviderWithTheWrongPasswordFailsAtRegisterAndLeavesNothingToRetry() throws Exception {
        registry("p.cache", "ferry", PASSWORD).register(provider(20001));
        ZookeeperRegistry other = registry("o.cache", "ferry", WRONG);
        ServiceUrl url = provider(20002);
        RegistryRefusedException refused = assertThrows(RegistryRefusedException.class, () -> other.register(url));
        assertTrue(refused.getMessage().contains(PROVIDERS + "/" + url.encoded() + " (NoAuth"),
                refused.getMessage());
        assertEquals(List.of(provider(20001).encoded()), raw("ferry:" + PASSWORD).getChildren(PROVIDERS, false));
    }

    @Test
    void parentsAlreadyOpenToAnyoneAreLeftAsTheyAreAndNamedOnceInAWarning() throws Exception {
        ZooKeeper anyone = raw(null);
        anyone.create("/dubbo", new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
        anyone.create("/dubbo/" + SERVICE, new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
        try (StandardErrorLines log = new StandardErrorLines()) {
            ZookeeperRegistry provider = registry("p.cache", "ferry", PASSWORD);
            provider.register(provider(20001));
            provider.register(provider(20002));
            List<String> warnings = Awaitility.await().atMost(Duration.ofSeconds(10))
                    .until(() -> log.containing("gives anyone (world:anyone)"), l -> l.size() >= 2);
            assertTrue(warnings.get(0).contains("WARN") && warnings.get(0).contains("/dubbo at ")
                    && warnings.get(0).contains("'cdwa'"), warnings.get(0));
            assertTrue(warnings.get(1).contains("/dubbo/" + SERVICE + " at "), warnings.get(1));
            provider.subscribe(new ServiceKey(SERVICE, "", ""), list -> { });
            assertEquals(2, log.containing("gives anyone").size(), "once per node, whatever registers or reads");
            assertTrue(log.containing(PROVIDERS + " at").isEmpty(), "the parent Ferry created is not open");
        }
        assertEquals(ZooDefs.Ids.OPEN_ACL_UNSAFE, anyone.getACL("/dubbo/" + SERVICE, null), "left as it was");
    }

    @Test
    void thePasswordAppearsInNoStringAndNoLogLine() {
        RegistryOptions options = RegistryOptions.builder().address("127.0.0.1", zk.port())
                .credentials("ferry", PASSWORD).build();
        assertFalse(options.toString().contains(PASSWORD), options.toString());
        assertTrue(options.values().toString().contains("password=******"), options.values().toString());
        try (StandardErrorLines log = new StandardErrorLines()) {
            registry("p.cache", "ferry", PASSWORD).register(provider(20001));
            assertThrows(RegistryRefusedException.class, () -> registry("c.cache", "ferry", WRONG)
                    .subscribe(new ServiceKey(SERVICE, "", ""), list -> { }));
            closeables.forEach(c -> {
                try {
                    c.close();
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            assertTrue(log.containing(PASSWORD).isEmpty() && log.containing(WRONG).isEmpty(),
                    "no password in the log");
            assertFalse(log.containing("registered").isEmpty(), "the log was captured");
        }
    }
}
