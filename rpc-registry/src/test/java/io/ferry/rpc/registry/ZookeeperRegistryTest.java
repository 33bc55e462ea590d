package io.ferry.rpc.registry;

import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.data.Stat;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The registry against a real ZooKeeper server in this process, on 127.0.0.1 and a free port. */
class ZookeeperRegistryTest {
    private static final String SERVICE = "demo.Greeter";

    @TempDir
    Path tmp;
    private EmbeddedZooKeeper zk;
    private final List<ZookeeperRegistry> registries = new ArrayList<>();

    @BeforeEach
    void startZooKeeper() {
        zk = EmbeddedZooKeeper.start("127.0.0.1", 0, Duration.ofMillis(200));
    }

    @AfterEach
    void stop() {
        registries.forEach(ZookeeperRegistry::close);
        zk.close();
    }

    private ZookeeperRegistry registry(String cacheName) {
        return registry(cacheName, Duration.ofSeconds(2), Duration.ofSeconds(2));
    }

    /** A registry on the test server, closed after the test. */
    private ZookeeperRegistry registry(String cacheName, Duration session, Duration connection) {
        ZookeeperRegistry registry = new ZookeeperRegistry(RegistryOptions.builder().address("127.0.0.1", zk.port())
                .sessionTimeout(session).connectionTimeout(connection).cacheFile(tmp.resolve(cacheName)).build());
        registries.add(registry);
        return registry;
    }

    private static ServiceUrl provider(int port, String version) {
        return new ServiceUrl("dubbo", "127.0.0.1", port, SERVICE, Map.of("interface", SERVICE,
                "methods", "hello", "side", "provider", "version", version));
    }

    /** The updates a subscriber receives. */
    private static final class Updates {
        final BlockingQueue<List<ProviderInstance>> lists = new LinkedBlockingQueue<>();

        ProviderListener listener() {
            return lists::add;
        }

        /** Waits (at most 15 s) for an update that satisfies {@code condition}, passing over the ones before it. */
        List<ProviderInstance> await(Predicate<List<ProviderInstance>> condition) {
            return Awaitility.await("a matching provider list").atMost(Duration.ofSeconds(15))
                    .until(() -> firstMatch(condition), Objects::nonNull);
        }

        /** Takes the updates received so far up to the first that satisfies {@code condition}; null if none does. */
        private List<ProviderInstance> firstMatch(Predicate<List<ProviderInstance>> condition) {
            for (List<ProviderInstance> list = lists.poll(); list != null; list = lists.poll()) {
                if (condition.test(list)) {
                    return list;
                }
            }
            return null;
        }

        static Predicate<List<ProviderInstance>> ports(Integer... ports) {
            return list -> list.stream().map(ProviderInstance::port).sorted().toList().equals(List.of(ports));
        }
    }

    @Test
    void providersAppearAndDisappearInSubscribersLists() throws Exception {
        ZookeeperRegistry provider = registry("p.cache");
        ZookeeperRegistry consumer = registry("c.cache");
        Updates updates = new Updates();
        consumer.subscribe(new ServiceKey(SERVICE, "1.0", ""), updates.listener());
        assertEquals(List.of(), updates.await(l -> true), "an empty list first");

        provider.register(provider(20001, "1.0"));
        provider.register(provider(20002, "1.0"));
        provider.register(provider(20003, "2.0"));
        List<ProviderInstance> both = updates.await(Updates.ports(20001, 20002));
        assertEquals(SERVICE, both.get(0).interfaceName());

        provider.unregister(provider(20001, "1.0"));
        updates.await(Updates.ports(20002));
        provider.close();
        updates.await(Updates.ports());
    }

    @Test
    void nodesFollowDubbosLayout() throws Exception {
        ZookeeperRegistry provider = registry("p.cache");
        ServiceUrl url = provider(20001, "");
        provider.register(url);
        ZooKeeper raw = rawClient();
        try {
            String path = "/dubbo/" + SERVICE + "/providers/" + url.encoded();
            Stat stat = awaitNode(raw, path);
            assertNotEquals(0, stat.getEphemeralOwner(), "provider nodes are ephemeral");
            assertEquals(0, raw.exists("/dubbo/" + SERVICE + "/providers", false).getEphemeralOwner(),
                    "parents are persistent");
            ServiceUrl consumer = new ServiceUrl("consumer", "127.0.0.1", 0, SERVICE, Map.of("interface", SERVICE,
                    "category", "consumers", "side", "consumer"));
            provider.register(consumer);
            assertNotEquals(0, awaitNode(raw, "/dubbo/" + SERVICE + "/consumers/" + consumer.encoded())
                    .getEphemeralOwner(), "consumers under /consumers, ephemeral too");
        } finally {
            raw.close();
        }
    }

    @Test
    void afterSessionExpiryTheRegistrationIsRecreatedInTheNewSession() throws Exception {
        ZookeeperRegistry provider = registry("p.cache");
        ServiceUrl url = provider(20001, "");
        provider.register(url);
        ZooKeeper raw = rawClient();
        try {
            String path = "/dubbo/" + SERVICE + "/providers/" + url.encoded();
            long firstOwner = awaitNode(raw, path).getEphemeralOwner();
            assertEquals(provider.sessionId(), firstOwner);

            zk.expireSession(firstOwner);
            Stat stat = Awaitility.await("the provider node back, owned by a new session")
                    .atMost(Duration.ofSeconds(15))
                    .until(() -> raw.exists(path, false), s -> s != null && s.getEphemeralOwner() != firstOwner);
            assertEquals(provider.sessionId(), stat.getEphemeralOwner(), "owned by the provider's new session");
        } finally {
            raw.close();
        }
    }

    @Test
    void subscribersKeepTheLastListWhileZooKeeperIsDown() throws Exception {
        ZookeeperRegistry provider = registry("p.cache", Duration.ofSeconds(4), Duration.ofSeconds(2));
        ZookeeperRegistry consumer = registry("c.cache");
        provider.register(provider(20001, ""));
        Updates updates = new Updates();
        consumer.subscribe(new ServiceKey(SERVICE, "", ""), updates.listener());
        updates.await(Updates.ports(20001));

        zk.stop();
        assertNull(updates.lists.poll(1000, TimeUnit.MILLISECONDS), "no update while ZooKeeper is down");
        zk.restart();
        // the provider's session outlives the outage, so it is listed again (if its node ever went, it is back)
        List<ProviderInstance> after = updates.lists.poll(3, TimeUnit.SECONDS);
        if (after != null && !after.equals(List.of()) && after.get(0).port() == 20001) {
            return;
        }
        if (after != null) {
            updates.await(Updates.ports(20001));
        }
    }

    @Test
    void aConsumerStartingWhileZooKeeperIsDownFindsProvidersInTheCacheFile() throws Exception {
        ZookeeperRegistry provider = registry("p.cache");
        ZookeeperRegistry first = registry("shared.cache");
        provider.register(provider(20001, ""));
        Updates warm = new Updates();
        first.subscribe(new ServiceKey(SERVICE, "", ""), warm.listener());
        warm.await(Updates.ports(20001));
        first.close();

        zk.stop();
        ZookeeperRegistry cold = registry("shared.cache", Duration.ofSeconds(60), Duration.ofMillis(500));
        Updates updates = new Updates();
        cold.subscribe(new ServiceKey(SERVICE, "", ""), updates.listener());
        assertEquals(20001, updates.await(Updates.ports(20001)).get(0).port());
    }

    @Test
    void closeRemovesEveryRegistration() throws Exception {
        ZookeeperRegistry provider = registry("p.cache");
        ServiceUrl url = provider(20001, "");
        provider.register(url);
        ZooKeeper raw = rawClient();
        try {
            String path = "/dubbo/" + SERVICE + "/providers/" + url.encoded();
            awaitNode(raw, path);
            provider.close();
            assertNull(raw.exists(path, false), "removed at close, not at session timeout");
        } finally {
            raw.close();
        }
    }

    @Test
    void theEmbeddedServerStartsOnlyWhenNothingListens() {
        InetSocketAddress taken = new InetSocketAddress("127.0.0.1", zk.port());
        assertTrue(EmbeddedZooKeeper.startUnlessListening(taken).isEmpty());
        assertTrue(EmbeddedZooKeeper.isListening(taken));
        zk.stop();
        assertFalse(EmbeddedZooKeeper.isListening(taken));
    }

    // ---- a plain ZooKeeper client to look at the nodes ----

    private ZooKeeper rawClient() throws Exception {
        CountDownLatch connected = new CountDownLatch(1);
        ZooKeeper raw = new ZooKeeper(zk.connectString(), 4000, e -> {
            if (e.getState() == org.apache.zookeeper.Watcher.Event.KeeperState.SyncConnected) {
                connected.countDown();
            }
        });
        assertTrue(connected.await(10, TimeUnit.SECONDS));
        return raw;
    }

    /** Waits (at most 15 s) for a node to exist, and returns its state. */
    private static Stat awaitNode(ZooKeeper raw, String path) {
        return Awaitility.await(path + " to appear").atMost(Duration.ofSeconds(15))
                .until(() -> raw.exists(path, false), Objects::nonNull);
    }
}
