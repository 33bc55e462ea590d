package io.ferry.rpc.config;

import com.fasterxml.jackson.databind.JsonNode;
import io.ferry.rpc.RpcException;
import io.ferry.rpc.RpcStatus;
import io.ferry.rpc.config.fixtures.AdminClient;
import io.ferry.rpc.config.fixtures.ChildProviders;
import io.ferry.rpc.config.fixtures.Named;
import io.ferry.rpc.config.fixtures.WhoAmI;
import io.ferry.rpc.config.fixtures.ZooKeeperFixture;
import io.ferry.rpc.config.observation.FerryMeterNames;
import io.ferry.rpc.registry.ServiceUrl;
import io.ferry.rpc.testkit.StandardErrorLines;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.Op;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static io.ferry.rpc.config.FerryMetersTest.value;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Empty-list protection against a real ZooKeeper in this process, real providers and real sockets: the registry
 * suddenly lists no provider (an operator deletes the nodes) while the providers still answer; then a provider dies,
 * shuts down, or a new one appears; and the cases where an empty list must be taken as it is.
 */
class EmptyListProtectionTest {
    private static final String PROVIDERS = "/dubbo/" + WhoAmI.class.getName() + "/providers";
    private static final String WARNING = "calls keep going to them until their connections fail or the registry "
            + "lists a provider again (empty-list protection)";

    @RegisterExtension
    final ZooKeeperFixture zk = new ZooKeeperFixture();
    @RegisterExtension
    final ChildProviders children = new ChildProviders();
    private final AdminClient admin = new AdminClient();
    private final SimpleMeterRegistry meters = new SimpleMeterRegistry();

    private Ferry provider(String name) {
        Ferry ferry = Ferry.builder().application(ApplicationConfig.of("provider-" + name))
                .protocol(ProtocolConfig.builder().host("127.0.0.1").port(0).build())
                .registry(zk.registry(name + ".cache")).shutdownHook(false).build();
        zk.track(ferry);
        ferry.export(ServiceConfig.builder(WhoAmI.class, new Named(name)).build());
        return ferry;
    }

    private Ferry consumer() {
        return zk.track(Ferry.builder().application(ApplicationConfig.builder().name("consumer").qosEnable(true)
                .qosPort(0).build()).registry(zk.registry("consumer.cache")).observability(Observability.meters(meters))
                .shutdownHook(false).build());
    }

    private static WhoAmI reference(Ferry consumer) {
        return consumer.reference(ReferenceConfig.builder(WhoAmI.class).timeout(Duration.ofSeconds(5)).check(false)
                .build());
    }

    /** The names that answered 20 calls; a failed call fails the test. */
    private static Set<String> answers(WhoAmI who) {
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < 20; i++) {
            seen.add(who.who());
        }
        return seen;
    }

    private static Set<String> callUntil(WhoAmI who, Set<String> expected) {
        return await("calls answered by " + expected).atMost(Duration.ofSeconds(15))
                .pollInterval(Duration.ofMillis(20)).until(() -> answers(who), expected::equals);
    }

    /** The consumer's reference as {@code /services} shows it. */
    private JsonNode shown(Ferry consumer) throws Exception {
        AdminClient.Answer answer = admin.get(consumer, "/services");
        assertEquals(200, answer.status(), answer.body());
        return answer.json().get("references").get(0);
    }

    private static FerryStatus.Reference status(Ferry consumer) {
        return consumer.status().references().get(0);
    }

    /**
     * As an operator wiping the service's providers would, or a registry bug: every provider node deleted at once
     * (one transaction, so consumers see the list go from all to none), the providers untouched. Nodes deleted one
     * by one would shrink the list first, and a shrinking list is taken as it is.
     */
    private void deleteProviderNodes() throws Exception {
        try (ZooKeeper raw = rawClient()) {
            List<Op> deletes = new ArrayList<>();
            for (String child : raw.getChildren(PROVIDERS, false)) {
                deletes.add(Op.delete(PROVIDERS + "/" + child, -1));
            }
            raw.multi(deletes);
        }
    }

    private ZooKeeper rawClient() throws Exception {
        CountDownLatch connected = new CountDownLatch(1);
        ZooKeeper raw = new ZooKeeper(zk.server().connectString(), 4000, e -> connected.countDown());
        if (!connected.await(10, TimeUnit.SECONDS)) {
            raw.close();
            throw new IllegalStateException("no session with " + zk.server().connectString());
        }
        return raw;
    }

    @Test
    void anOperatorDeletingEveryProviderNodeDoesNotStopCallsToLiveProviders() throws Exception {
        provider("p1");
        provider("p2");
        Ferry consumer = consumer();
        WhoAmI who = reference(consumer);
        callUntil(who, Set.of("p1", "p2"));
        List<ServiceUrl> registered = zk.registeredProviders(WhoAmI.class);
        try (StandardErrorLines log = new StandardErrorLines()) {
            deleteProviderNodes();
            await().atMost(Duration.ofSeconds(10)).until(() -> log.containing(WARNING).size() == 1);
            String warning = log.containing(WARNING).get(0);
            assertTrue(warning.contains("WARN") && warning.contains(WhoAmI.class.getName())
                    && warning.contains("but 2 still have live connections"), warning);
            callUntil(who, Set.of("p1", "p2")); // calls go on to both

            FerryStatus.Reference reference = status(consumer);
            assertEquals(2, reference.kept());
            assertTrue(reference.heldByEmptyProtection());
            assertEquals(2, reference.ready());
            JsonNode shown = shown(consumer);
            assertEquals(2, shown.get("keptByEmptyProtection").asInt(), shown.toString());
            assertTrue(shown.get("providersFrom").asText().contains("no provider of " + WhoAmI.class.getName()
                    + " listed; 2 kept by empty-list protection"), shown.toString());
            assertEquals(0, value(meters, FerryMeterNames.PROVIDERS, "rpc.service", WhoAmI.class.getName()),
                    "the registry lists none");
            assertEquals(2, value(meters, FerryMeterNames.PROVIDERS_KEPT, "rpc.service", WhoAmI.class.getName()));

            // the registry says "none" again (a provider of another version appears): the same episode, no new WARN
            ServiceUrl other = registered.get(0);
            Map<String, String> parameters = new HashMap<>(other.parameters());
            parameters.put("version", "9.9");
            try (ZooKeeper raw = rawClient()) {
                raw.create(PROVIDERS + "/" + new ServiceUrl(other.protocol(), other.host(), other.port(),
                                other.path(), parameters).encoded(), "".getBytes(StandardCharsets.UTF_8),
                        ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
            }
            for (int i = 0; i < 10; i++) {
                answers(who); // 200 calls, none fails
            }
            assertEquals(1, log.containing(WARNING).size(), "one WARN per episode");
            assertEquals(2, status(consumer).kept());
        }
    }

    @Test
    void keptProvidersGoWhenTheirConnectionsFailAndWithNoneLeftCallsFailNoProvider() throws Exception {
        ChildProviders.Child dying = children.start(zk.server().port(), "dying");
        Ferry leaving = provider("leaving");
        Ferry consumer = consumer();
        WhoAmI who = reference(consumer);
        callUntil(who, Set.of("dying", "leaving"));
        deleteProviderNodes();
        await().atMost(Duration.ofSeconds(10)).until(() -> status(consumer).kept() == 2);
        callUntil(who, Set.of("dying", "leaving"));

        children.kill(dying); // SIGKILL: the kernel resets its connection; no readonly, no unregister
        await().atMost(Duration.ofSeconds(10)).until(() -> status(consumer).kept() == 1);
        assertEquals(Set.of("leaving"), answers(who), "the dead one is gone; no call fails");
        assertEquals(1, shown(consumer).get("providers").size());

        leaving.close(); // graceful: readonly, then its connections close
        await().atMost(Duration.ofSeconds(10)).until(() -> status(consumer).known() == 0);
        assertEquals(0, status(consumer).kept());
        RpcException none = assertThrows(RpcException.class, who::who);
        assertEquals(RpcStatus.NO_PROVIDER, none.status(), none.getMessage());
        assertEquals(0, shown(consumer).get("keptByEmptyProtection").asInt());
    }

    @Test
    void aProviderAppearingEndsTheProtection() throws Exception {
        provider("old");
        Ferry consumer = consumer();
        WhoAmI who = reference(consumer);
        callUntil(who, Set.of("old"));
        deleteProviderNodes();
        await().atMost(Duration.ofSeconds(10)).until(() -> status(consumer).kept() == 1);
        assertEquals(Set.of("old"), answers(who));

        provider("new");
        // the registry's list again; old, alive but not listed, keeps its calls within unlistedGrace
        callUntil(who, Set.of("new", "old"));
        assertEquals(0, status(consumer).kept());
        assertFalse(status(consumer).heldByEmptyProtection());
        assertEquals(2, status(consumer).known());
        assertEquals(0, shown(consumer).get("keptByEmptyProtection").asInt());
        assertEquals(1, shown(consumer).get("keptWhileUnlisted").asInt());
        assertEquals(1, value(meters, FerryMeterNames.PROVIDERS, "rpc.service", WhoAmI.class.getName()));
        assertEquals(1, value(meters, FerryMeterNames.PROVIDERS_KEPT, "rpc.service", WhoAmI.class.getName()));
    }

    @Test
    void aGracefulScaleDownToZeroEmptiesTheList() throws Exception {
        Ferry p1 = provider("p1");
        Ferry p2 = provider("p2");
        Ferry consumer = consumer();
        WhoAmI who = reference(consumer);
        callUntil(who, Set.of("p1", "p2"));
        try (StandardErrorLines log = new StandardErrorLines()) {
            p1.close(); // unregister, leave the registry, readonly, grace, close
            p2.close();
            // no wait for a connection to time out or a session to expire: the list empties as the providers leave
            RpcException none = await().atMost(Duration.ofSeconds(2)).pollInterval(Duration.ofMillis(10))
                    .until(() -> failure(who), e -> e != null && e.status() == RpcStatus.NO_PROVIDER);
            assertTrue(none.getMessage().contains("0 provider(s) of " + WhoAmI.class.getName()), none.getMessage());
            assertEquals(0, status(consumer).kept());
            assertEquals(0, status(consumer).known());
            assertEquals(List.of(), log.containing(WARNING), "an ordinary scale-down is no episode to warn of");
        }
    }

    @Test
    void aConsumerThatStartsWithAnEmptyListKeepsNothing() throws Exception {
        provider("alive"); // alive and listening, but not listed when the consumer starts
        deleteProviderNodes();
        Ferry consumer = consumer();
        WhoAmI who = reference(consumer);
        RpcException none = assertThrows(RpcException.class, who::who);
        assertEquals(RpcStatus.NO_PROVIDER, none.status(), none.getMessage());
        assertEquals(0, status(consumer).kept());
        assertEquals(0, shown(consumer).get("keptByEmptyProtection").asInt());
    }

    @Test
    void withEmptyProtectionOffAnEmptyListIsTakenAsDubboTakesIt() throws Exception {
        provider("p");
        Ferry consumer = zk.track(Ferry.builder().registry(zk.registry("off.cache"))
                .consumer(ConsumerConfig.builder().emptyProtection(false).build()).shutdownHook(false).build());
        WhoAmI who = reference(consumer);
        callUntil(who, Set.of("p"));
        deleteProviderNodes();
        RpcException none = await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(10))
                .until(() -> failure(who), e -> e != null && e.status() == RpcStatus.NO_PROVIDER);
        assertTrue(none.getMessage().contains("0 provider(s)"), none.getMessage());
        assertEquals(0, status(consumer).kept());
    }

    /** The failure of one call, or null when it succeeded. */
    private static RpcException failure(WhoAmI who) {
        try {
            who.who();
            return null;
        } catch (RpcException e) {
            return e;
        }
    }
}
