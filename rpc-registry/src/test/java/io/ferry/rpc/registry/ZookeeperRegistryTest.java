package io.ferry.rpc.registry;

import io.ferry.rpc.Ticker;
import io.ferry.rpc.testkit.StandardErrorLines;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.data.Stat;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

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

    /**
     * A node an earlier session left (after a session expiry in a partition, or a quorum lost for longer than a
     * session, it lingers until the server expires that session) is replaced by one transaction: a reader sees its
     * deletion and the new node's creation at one zxid, never a list without the provider. Found by
     * ZooKeeperEnsembleTest in rpc-config, against Ferry's earlier delete-then-create.
     */
    @Test
    void aNodeAnEarlierSessionLeftIsReplacedInOneTransaction() throws Exception {
        ServiceUrl url = provider(20001, "");
        String path = "/dubbo/" + SERVICE + "/providers/" + url.encoded();
        ZooKeeper earlier = rawClient();
        ZooKeeper watcher = rawClient();
        try {
            for (String parent : List.of("/dubbo", "/dubbo/" + SERVICE, "/dubbo/" + SERVICE + "/providers")) {
                earlier.create(parent, new byte[0], org.apache.zookeeper.ZooDefs.Ids.OPEN_ACL_UNSAFE,
                        org.apache.zookeeper.CreateMode.PERSISTENT);
            }
            earlier.create(path, new byte[0], org.apache.zookeeper.ZooDefs.Ids.OPEN_ACL_UNSAFE,
                    org.apache.zookeeper.CreateMode.EPHEMERAL);
            List<org.apache.zookeeper.WatchedEvent> events = new CopyOnWriteArrayList<>();
            watcher.addWatch(path, events::add, org.apache.zookeeper.AddWatchMode.PERSISTENT);

            ZookeeperRegistry provider = registry("p.cache");
            provider.register(url);
            Stat stat = Awaitility.await("the node owned by the provider's session").atMost(Duration.ofSeconds(15))
                    .until(() -> watcher.exists(path, false),
                            s -> s != null && s.getEphemeralOwner() == provider.sessionId());
            Awaitility.await("both events").atMost(Duration.ofSeconds(15)).until(() -> events.size() >= 2);
            assertEquals(List.of("NodeDeleted", "NodeCreated"),
                    events.stream().map(e -> e.getType().name()).toList());
            assertEquals(events.get(0).getZxid(), events.get(1).getZxid(), "one transaction");
            assertEquals(stat.getCzxid(), events.get(1).getZxid());
        } finally {
            earlier.close();
            watcher.close();
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

    // ---- on a scheduler shared with others, with no thread of its own ----

    @Test
    void aRegistryGivenASchedulerRunsOnItWithNoThreadOfItsOwn() throws Exception {
        ScheduledExecutorService shared = sharedScheduler();
        try {
            // threads of registries closed by earlier tests end soon after: wait for that, not for time
            Awaitility.await("no ferry-registry thread left by earlier tests").atMost(Duration.ofSeconds(15))
                    .until(() -> registryThreads().isEmpty());
            ZookeeperRegistry provider = sharedRegistry(shared, "p.cache");
            ZookeeperRegistry consumer = sharedRegistry(shared, "c.cache");
            List<String> listenerThreads = new CopyOnWriteArrayList<>();
            Updates updates = new Updates();
            consumer.subscribe(new ServiceKey(SERVICE, "", ""), list -> {
                listenerThreads.add(Thread.currentThread().getName());
                updates.lists.add(list);
            });
            ServiceUrl url = provider(20001, "");
            provider.register(url);
            updates.await(Updates.ports(20001));

            ZooKeeper raw = rawClient();
            try {
                String path = "/dubbo/" + SERVICE + "/providers/" + url.encoded();
                long firstOwner = awaitNode(raw, path).getEphemeralOwner();
                zk.expireSession(firstOwner);
                Stat stat = Awaitility.await("the provider node back, owned by a new session")
                        .atMost(Duration.ofSeconds(15))
                        .until(() -> raw.exists(path, false), st -> st != null && st.getEphemeralOwner() != firstOwner);
                assertEquals(provider.sessionId(), stat.getEphemeralOwner());
            } finally {
                raw.close();
            }
            long consumerSession = consumer.sessionId();
            zk.expireSession(consumerSession);
            Awaitility.await("the consumer in a new session").atMost(Duration.ofSeconds(15))
                    .until(consumer::sessionId, id -> id != 0 && id != consumerSession);
            provider.register(provider(20002, ""));
            updates.await(Updates.ports(20001, 20002)); // the subscription is watching again in the new session
            assertEquals(List.of(), registryThreads(), "no thread of its own");
            assertEquals(List.of("shared-scheduler"), listenerThreads.stream().distinct().toList(),
                    "listeners are called on the scheduler given");

            provider.close();
            consumer.close();
            assertFalse(shared.isShutdown(), "the scheduler belongs to whoever gave it");
            assertEquals("still serving its other users", shared.submit(() -> "still serving its other users")
                    .get(10, TimeUnit.SECONDS));
        } finally {
            shared.shutdownNow();
        }
    }

    @Test
    void calledOnTheSharedSchedulersThreadRegisterReturnsAtOnceInsteadOfWaitingForItself() throws Exception {
        ScheduledExecutorService shared = sharedScheduler();
        try {
            ZookeeperRegistry provider = sharedRegistry(shared, "p.cache");
            ZookeeperRegistry consumer = sharedRegistry(shared, "c.cache");
            Updates updates = new Updates();
            // a task of another user of the thread (a failback retry, a timer) calling in: were it to wait for the
            // registry's work, queued behind itself on that one thread, it would hold the thread for 2 x 2 s
            shared.submit(() -> consumer.subscribe(new ServiceKey(SERVICE, "", ""), updates.listener()))
                    .get(1, TimeUnit.SECONDS);
            shared.submit(() -> provider.register(provider(20001, ""))).get(1, TimeUnit.SECONDS);
            updates.await(Updates.ports(20001));
        } finally {
            registries.forEach(ZookeeperRegistry::close);
            shared.shutdownNow();
        }
    }

    private static ScheduledExecutorService sharedScheduler() {
        return Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "shared-scheduler");
            t.setDaemon(true);
            return t;
        });
    }

    private ZookeeperRegistry sharedRegistry(ScheduledExecutorService scheduler, String cacheName) {
        ZookeeperRegistry registry = new ZookeeperRegistry(RegistryOptions.builder().address("127.0.0.1", zk.port())
                .sessionTimeout(Duration.ofSeconds(2)).connectionTimeout(Duration.ofSeconds(2))
                .cacheFile(tmp.resolve(cacheName)).build(), scheduler);
        registries.add(registry);
        return registry;
    }

    @Test
    void describeSaysHowLongZooKeeperHasBeenUnreachableOnTheTicker() {
        AtomicLong now = new AtomicLong(7);
        Ticker ticker = now::get;
        ScheduledExecutorService scheduler = sharedScheduler();
        try {
            ZookeeperRegistry registry = new ZookeeperRegistry(RegistryOptions.builder().address("127.0.0.1",
                    zk.port()).sessionTimeout(Duration.ofSeconds(2)).connectionTimeout(Duration.ofSeconds(2))
                    .cacheFile(tmp.resolve("t.cache")).build(), scheduler, ticker);
            registries.add(registry);
            assertEquals("ZooKeeper 127.0.0.1:" + zk.port(), registry.describe());

            zk.stop();
            Awaitility.await("the registry sees the server gone").atMost(Duration.ofSeconds(15))
                    .until(registry::describe, d -> d.endsWith(", unreachable for 0 s"));
            now.addAndGet(TimeUnit.SECONDS.toNanos(90));
            assertEquals("ZooKeeper 127.0.0.1:" + zk.port() + ", unreachable for 90 s", registry.describe());
        } finally {
            registries.forEach(ZookeeperRegistry::close);
            registries.clear();
            scheduler.shutdownNow();
        }
    }

    private static List<String> registryThreads() {
        return Thread.getAllStackTraces().keySet().stream().filter(Thread::isAlive).map(Thread::getName)
                .filter("ferry-registry"::equals).toList();
    }

    @Test
    void theEmbeddedServerStartsOnlyWhenNothingListens() {
        InetSocketAddress taken = new InetSocketAddress("127.0.0.1", zk.port());
        assertTrue(EmbeddedZooKeeper.startUnlessListening(taken).isEmpty());
        assertTrue(EmbeddedZooKeeper.isListening(taken));
        zk.stop();
        assertFalse(EmbeddedZooKeeper.isListening(taken));
    }

    // ---- the embedded server: only where embedded=true asks for it ----

    private static final String HOSTING = "hosts an in-process ZooKeeper at";

    @Test
    void thePlainDefaultAddressWithNothingListeningIsUnreachableAndStartsNoServer() throws Exception {
        InetSocketAddress defaultAddress = new InetSocketAddress("127.0.0.1", 2181);
        // 2181 is shared with whatever else runs on this machine: only a free one shows that nothing starts there
        assumeFalse(EmbeddedZooKeeper.isListening(defaultAddress), "something listens on 127.0.0.1:2181");
        try (StandardErrorLines err = new StandardErrorLines()) {
            ZookeeperRegistry plain = new ZookeeperRegistry(RegistryOptions.parse(RegistryOptions.DEFAULT_ADDRESS)
                    .connectionTimeout(Duration.ofMillis(500)).cacheFile(tmp.resolve("plain.cache")).build());
            registries.add(plain);
            assertFalse(plain.usesEmbeddedServer());
            assertFalse(EmbeddedZooKeeper.isListening(defaultAddress), "no server of this process on 2181");
            assertTrue(plain.describe().startsWith("ZooKeeper 127.0.0.1:2181, unreachable for "), plain.describe());
            Updates updates = new Updates();
            plain.subscribe(new ServiceKey(SERVICE, "", ""), updates.listener());
            assertEquals(List.of(), updates.await(l -> true), "the (empty) cache, as for any unreachable address");
            assertEquals(List.of(), err.containing(HOSTING));
        }
    }

    @Test
    void embeddedTrueHostsAServerWhereNothingListensAndSaysSoOnce() throws Exception {
        int port = freePort();
        InetSocketAddress address = new InetSocketAddress("127.0.0.1", port);
        try (StandardErrorLines err = new StandardErrorLines()) {
            ZookeeperRegistry host = embeddedRegistry(port, "host.cache");
            ZookeeperRegistry joining = embeddedRegistry(port, "joining.cache");
            assertTrue(host.usesEmbeddedServer());
            assertTrue(joining.usesEmbeddedServer(), "the second registry of the process shares the server");
            assertTrue(EmbeddedZooKeeper.isListening(address));
            assertTrue(host.describe().startsWith("ZooKeeper 127.0.0.1:" + port + " (embedded=true)"),
                    host.describe());

            Updates updates = new Updates();
            joining.subscribe(new ServiceKey(SERVICE, "", ""), updates.listener());
            host.register(provider(20001, ""));
            updates.await(Updates.ports(20001));

            List<String> warnings = err.containing(HOSTING);
            assertEquals(1, warnings.size(), warnings.toString());
            assertTrue(warnings.get(0).contains("WARN"), warnings.get(0));
            assertTrue(warnings.get(0).contains("this process hosts an in-process ZooKeeper at 127.0.0.1:" + port
                    + ", as zookeeper://127.0.0.1:" + port + "?embedded=true asks, for development only; to use a "
                    + "real one, run ZooKeeper and give its address without embedded=true"), warnings.get(0));
        }
        registries.forEach(ZookeeperRegistry::close);
        assertFalse(EmbeddedZooKeeper.isListening(address), "the last registry to close stops it");
    }

    @Test
    void embeddedTrueTakesOverHostingWhenTheServerGoesAway() throws Exception {
        try (StandardErrorLines err = new StandardErrorLines()) {
            ZookeeperRegistry registry = embeddedRegistry(zk.port(), "takeover.cache");
            assertFalse(registry.usesEmbeddedServer(), "a server listens already: this process is its client");
            ServiceUrl url = provider(20001, "");
            registry.register(url);
            zk.close(); // the host goes away

            ZooKeeper raw = rawClient(); // connects once a server listens on the port again
            try {
                awaitNode(raw, "/dubbo/" + SERVICE + "/providers/" + url.encoded());
            } finally {
                raw.close();
            }
            assertTrue(registry.usesEmbeddedServer(), "this process hosts it now, with the registration back");
            List<String> warnings = err.containing(HOSTING);
            assertEquals(1, warnings.size(), warnings.toString());
            assertTrue(warnings.get(0).contains("WARN"), warnings.get(0));
            assertTrue(warnings.get(0).contains("taking over from a host that went away, this process hosts an "
                    + "in-process ZooKeeper at 127.0.0.1:" + zk.port()), warnings.get(0));
        }
    }

    @Test
    void embeddedTrueOnAnotherHostIsRefusedBeforeAnythingStarts() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new ZookeeperRegistry(
                RegistryOptions.parse("zookeeper://192.0.2.1:2181?embedded=true").build()));
        assertTrue(e.getMessage().startsWith("embedded=true: 192.0.2.1:2181 is not a loopback address"),
                e.getMessage());
    }

    private ZookeeperRegistry embeddedRegistry(int port, String cacheName) {
        ZookeeperRegistry registry = new ZookeeperRegistry(RegistryOptions.parse("zookeeper://127.0.0.1:" + port
                + "?embedded=true").sessionTimeout(Duration.ofSeconds(4)).connectionTimeout(Duration.ofSeconds(5))
                .cacheFile(tmp.resolve(cacheName)).build());
        registries.add(registry);
        return registry;
    }

    /** A port nothing listens on: the opt-in's role needs a fixed port that every process agrees on. */
    private static int freePort() throws IOException {
        try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return probe.getLocalPort();
        }
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
