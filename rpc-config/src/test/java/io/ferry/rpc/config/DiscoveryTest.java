package io.ferry.rpc.config;

import io.ferry.rpc.RpcContext;
import io.ferry.rpc.RpcException;
import io.ferry.rpc.RpcStatus;
import io.ferry.rpc.config.fixtures.Named;
import io.ferry.rpc.config.fixtures.WhoAmI;
import io.ferry.rpc.config.fixtures.ZooKeeperFixture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Providers and consumers finding each other through a real ZooKeeper in this process, on 127.0.0.1. */
class DiscoveryTest {
    @RegisterExtension
    final ZooKeeperFixture zk = new ZooKeeperFixture();

    private RegistryConfig registry(String cache) {
        return zk.registry(cache);
    }

    private Ferry provider(Named impl, int threads) {
        Ferry ferry = Ferry.builder().application(ApplicationConfig.of("provider-" + impl.who()))
                .protocol(ProtocolConfig.builder().host("127.0.0.1").port(0).threads(threads).build())
                .registry(registry(impl.who() + ".cache")).build();
        zk.track(ferry);
        ferry.export(ServiceConfig.builder(WhoAmI.class, impl).build());
        return ferry;
    }

    private WhoAmI consumer() {
        return consumer(true);
    }

    private WhoAmI consumer(boolean check) {
        Ferry ferry = Ferry.builder().application(ApplicationConfig.of("consumer"))
                .registry(registry("consumer.cache")).build();
        zk.track(ferry);
        return ferry.reference(ReferenceConfig.builder(WhoAmI.class).timeout(Duration.ofSeconds(5)).check(check)
                .build());
    }

    /**
     * Calls in rounds of 20 until {@code condition} holds for the names that answered one round (at most 15 s); a
     * failed call fails the test.
     */
    private static Set<String> callUntil(WhoAmI who, java.util.function.Predicate<Set<String>> condition) {
        return await("the providers answering a round of 20 calls").atMost(Duration.ofSeconds(15))
                .pollInterval(Duration.ofMillis(20)).until(() -> answersToTwentyCalls(who), condition);
    }

    private static Set<String> answersToTwentyCalls(WhoAmI who) {
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < 20; i++) {
            seen.add(who.who());
        }
        return seen;
    }

    @Test
    void callsSpreadOverDiscoveredProvidersAndFollowThemLeaving() {
        provider(new Named("p1"), 10);
        Ferry p2 = provider(new Named("p2"), 10);
        WhoAmI who = consumer();
        assertEquals(Set.of("p1", "p2"), callUntil(who, s -> s.size() == 2));
        p2.close();
        assertEquals(Set.of("p1"), callUntil(who, s -> s.equals(Set.of("p1"))));
        provider(new Named("p3"), 10);
        assertEquals(Set.of("p1", "p3"), callUntil(who, s -> s.size() == 2));
    }

    @Test
    void aCallRefusedUnrunByAFullPoolMovesToAnotherProviderAtOnce() throws Exception {
        Named busy = new Named("busy");
        Named free = new Named("free");
        Ferry busyProvider = provider(busy, 1);
        provider(free, 10);
        WhoAmI who = consumer();
        callUntil(who, s -> s.size() == 2);
        // occupy busy's only thread by calling it directly: through the cluster, a hold() could land on free
        // instead, or be refused by busy and move to free, taking free's threads on a slow machine
        Ferry direct = zk.track(Ferry.builder().shutdownHook(false).build());
        WhoAmI busyOnly = direct.reference(ReferenceConfig.builder(WhoAmI.class)
                .url("dubbo://127.0.0.1:" + busyProvider.port()).timeout(Duration.ofSeconds(30)).build());
        CompletableFuture<String> holding = RpcContext.async(busyOnly::hold);
        assertTrue(busy.held.await(10, TimeUnit.SECONDS), "a call is holding busy's only thread");
        for (int i = 0; i < 40; i++) {
            assertEquals("free", who.who(), "every call ends on the free provider, none fails");
        }
        busy.release.countDown();
        assertEquals("busy", holding.get(10, TimeUnit.SECONDS));
    }

    @Test
    void callsContinueWhileZooKeeperIsDown() {
        provider(new Named("p1"), 10);
        WhoAmI who = consumer();
        assertEquals("p1", who.who());
        zk.server().stop();
        for (int i = 0; i < 20; i++) {
            assertEquals("p1", who.who());
        }
        zk.server().restart();
        assertEquals("p1", who.who());
    }

    @Test
    void withoutProvidersACallFailsAtOnceWithNoProvider() {
        WhoAmI who = consumer(false);
        long start = System.nanoTime();
        RpcException e = assertThrows(RpcException.class, who::who);
        assertEquals(RpcStatus.NO_PROVIDER, e.status());
        // at once: the bound is the reference's 5 s timeout, which a call waiting for a provider would run out
        assertTrue(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start) < 5000);
    }

    @Test
    void versionsAndGroupsSeparateProviders() {
        Ferry ferry = Ferry.builder().protocol(ProtocolConfig.builder().host("127.0.0.1").port(0).build())
                .registry(registry("vg.cache")).build();
        zk.track(ferry);
        ferry.export(ServiceConfig.builder(WhoAmI.class, new Named("v1")).version("1.0").build());
        ferry.export(ServiceConfig.builder(WhoAmI.class, new Named("v2-blue")).version("2.0").group("blue").build());
        Ferry consumer = zk.track(Ferry.builder().registry(registry("c2.cache")).build());
        Supplier<WhoAmI> v1 = () -> consumer.reference(ReferenceConfig.builder(WhoAmI.class).version("1.0").build());
        assertEquals("v1", v1.get().who());
        assertEquals("v2-blue", consumer.reference(ReferenceConfig.builder(WhoAmI.class).version("2.0")
                .group("blue").build()).who());
        RpcException none = assertThrows(RpcException.class, () -> consumer.reference(
                ReferenceConfig.builder(WhoAmI.class).version("2.0").build()).who());
        assertEquals(RpcStatus.NO_PROVIDER, none.status());
    }
}
