package io.ferry.rpc.config;

import io.ferry.rpc.Deadline;
import io.ferry.rpc.Invocation;
import io.ferry.rpc.Invoker;
import io.ferry.rpc.Ticker;
import io.ferry.rpc.config.fixtures.Named;
import io.ferry.rpc.config.fixtures.WhoAmI;
import io.ferry.rpc.config.internal.cluster.FailoverCluster;
import io.ferry.rpc.config.internal.cluster.RandomBalancer;
import io.ferry.rpc.config.internal.cluster.Clocks;
import io.ferry.rpc.config.internal.cluster.ListProtection;
import io.ferry.rpc.config.internal.cluster.ProviderEndpoints;
import io.ferry.rpc.remoting.EndpointFactory;
import io.ferry.rpc.config.internal.cluster.RegistryDirectory;
import io.ferry.rpc.config.internal.RegistryUrls;
import io.ferry.rpc.registry.ProviderInstance;
import io.ferry.rpc.ClassAllowList;
import io.ferry.rpc.remoting.ClientOptions;
import io.ferry.rpc.remoting.Client;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.time.Clock;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The directory and choice of providers, fed provider lists by hand (as the registry would). */
class RegistryDirectoryTest {
    private final Client client = Client.create(2);
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();

    @AfterEach
    void closeClient() {
        client.close();
        timer.shutdownNow();
    }

    private RegistryDirectory directory(ClientOptions options) {
        return directory(options, ListProtection.defaults());
    }

    private RegistryDirectory directory(ClientOptions options, ListProtection protection) {
        return new RegistryDirectory(WhoAmI.class.getName(),
                ProviderEndpoints.only(client.endpoints(WhoAmI.class, ClassAllowList.none(), options)), Duration.ZERO,
                15_000,
                OutlierEjection.defaults(), () -> "registry", new Clocks(Ticker.system(), Clock.systemUTC(), timer),
                protection);
    }

    private static Object call(RegistryDirectory directory) throws Exception {
        Invoker cluster = new FailoverCluster(2).join(directory, new RandomBalancer());
        return cluster.invoke(who()).get(5, TimeUnit.SECONDS).value();
    }

    private static ProviderInstance at(int port) {
        return new ProviderInstance("127.0.0.1", port, WhoAmI.class.getName(), "", "", Set.of("who"), 100, false,
                "test");
    }

    private static Invocation who() throws Exception {
        return new Invocation(WhoAmI.class.getName(), "", "", WhoAmI.class.getMethod("who"), new Object[0],
                Map.of(), Deadline.after(Duration.ofSeconds(5), Ticker.system()), false, Runnable::run);
    }

    private static Ferry provider(String name) {
        Ferry ferry = Ferry.builder().protocol(ProtocolConfig.builder().host("127.0.0.1").port(0).build())
                .shutdownHook(false).build();
        ferry.export(ServiceConfig.builder(WhoAmI.class, new Named(name)).build());
        return ferry;
    }

    @Test
    void anEmptyListDoesNotStopCallsToProvidersThatStillAnswer() throws Exception {
        try (Ferry p = provider("p");
             RegistryDirectory cluster = directory(ClientOptions.defaults())) {
            cluster.providersChanged(List.of(at(p.port())));
            assertEquals("p", call(cluster));
            cluster.providersChanged(List.of());
            assertEquals(1, cluster.providers().size(), "kept: it still answers");
            assertEquals(1, cluster.kept());
            assertEquals(0, cluster.listed(), "the registry lists none");
            assertTrue(cluster.describe().contains("kept by empty-list protection"), cluster.describe());
            assertEquals("p", call(cluster));
        }
    }

    @Test
    void withoutEmptyProtectionAnEmptyListIsTaken() throws Exception {
        try (Ferry p = provider("p");
             RegistryDirectory cluster = directory(ClientOptions.defaults(), ListProtection.none())) {
            cluster.providersChanged(List.of(at(p.port())));
            assertEquals("p", call(cluster));
            cluster.providersChanged(List.of());
            assertEquals(List.of(), cluster.providers());
            assertEquals(0, cluster.kept());
        }
    }

    @Test
    void onlyProvidersStillReadyAreKept() throws Exception {
        try (Ferry a = provider("a"); Ferry b = provider("b");
             ServerSocket closed = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
             RegistryDirectory cluster = directory(ClientOptions.builder()
                     .connectTimeout(Duration.ofMillis(300)).build())) {
            int nothingListens = closed.getLocalPort();
            closed.close();
            cluster.providersChanged(List.of(at(a.port()), at(b.port()), at(nothingListens)));
            await().atMost(Duration.ofSeconds(10)).until(() -> Set.of("a", "b").equals(answers(cluster)));
            cluster.providersChanged(List.of(at(b.port()))); // a still answers: kept while unlisted
            assertEquals(List.of(at(b.port()), at(a.port())), cluster.providers());
            assertEquals(1, cluster.keptUnlisted());
            cluster.providersChanged(List.of());
            assertEquals(List.of(at(b.port()), at(a.port())), cluster.providers(), "both still answer: kept");
            assertEquals(2, cluster.kept());
            cluster.providersChanged(List.of(at(a.port()))); // a provider appears: the registry's list again
            assertEquals(List.of(at(a.port()), at(b.port())), cluster.providers(), "b, still ready, is kept unlisted");
            assertEquals(0, cluster.kept());
            assertEquals(1, cluster.keptUnlisted());
            assertEquals(1, cluster.listed());
            await().atMost(Duration.ofSeconds(10)).until(() -> Set.of("a", "b").equals(answers(cluster)));
        }
    }

    @Test
    void anEmptyListIsTakenWhenNoProviderIsReady() throws Exception {
        try (ServerSocket closed = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
             RegistryDirectory cluster = directory(ClientOptions.builder()
                     .connectTimeout(Duration.ofMillis(300)).build())) {
            cluster.providersChanged(List.of());
            assertEquals(0, cluster.kept(), "nothing to keep");
            int nothingListens = closed.getLocalPort();
            closed.close();
            cluster.providersChanged(List.of(at(nothingListens)));
            cluster.providersChanged(List.of());
            assertEquals(List.of(), cluster.providers(), "no live connection: nothing kept");
            assertEquals(0, cluster.kept());
        }
    }

    @Test
    void aKeptProviderShuttingDownGoesAndTheLastOneGoneEndsTheProtection() throws Exception {
        Ferry p = provider("p");
        try (Ferry q = provider("q");
             RegistryDirectory cluster = directory(ClientOptions.defaults())) {
            cluster.providersChanged(List.of(at(p.port()), at(q.port())));
            await().atMost(Duration.ofSeconds(10)).until(() -> Set.of("p", "q").equals(answers(cluster)));
            cluster.providersChanged(List.of());
            assertEquals(2, cluster.kept());
            p.close(); // readonly, then its connections close: no longer ready
            await().atMost(Duration.ofSeconds(10)).until(() -> cluster.kept() == 1);
            assertEquals(List.of(at(q.port())), cluster.providers());
            for (int i = 0; i < 10; i++) {
                assertEquals("q", call(cluster));
            }
            q.close();
            await().atMost(Duration.ofSeconds(10)).until(() -> cluster.providers().isEmpty());
            assertEquals(0, cluster.kept());
            assertEquals(0, cluster.listed());
        } finally {
            p.close();
        }
    }

    /** The names that answered ten calls. */
    private static Set<Object> answers(RegistryDirectory cluster) throws Exception {
        Set<Object> seen = new java.util.HashSet<>();
        for (int i = 0; i < 10; i++) {
            seen.add(call(cluster));
        }
        return seen;
    }

    @Test
    void aProviderThatTurnsTlsOnIsReachedThroughANewEndpointOfTheRightKind() throws Exception {
        List<String> opened = new java.util.ArrayList<>();
        EndpointFactory real = client.endpoints(WhoAmI.class, ClassAllowList.none(), ClientOptions.defaults());
        EndpointFactory plain = (address, weight, spread) -> {
            opened.add("plain");
            return real.open(address, weight, spread);
        };
        EndpointFactory tls = (address, weight, spread) -> { // stands in for the TLS factory: counted, not spoken
            opened.add("tls");
            return real.open(address, weight, spread);
        };
        try (Ferry p = provider("p");
             RegistryDirectory cluster = new RegistryDirectory(WhoAmI.class.getName(),
                     new ProviderEndpoints(plain, () -> tls), Duration.ZERO, 15_000, OutlierEjection.defaults(),
                     () -> "registry", new Clocks(Ticker.system(), Clock.systemUTC(), timer), ListProtection.defaults())) {
            ProviderInstance before = at(p.port());
            cluster.providersChanged(List.of(before));
            cluster.providersChanged(List.of(before)); // the same again: the same endpoint
            assertEquals(List.of("plain"), opened);

            ProviderInstance restarted = new ProviderInstance("127.0.0.1", p.port(), WhoAmI.class.getName(), "", "",
                    Set.of("who"), 100, false, "test", 0, ProviderInstance.DEFAULT_WARMUP_MILLIS, null, true);
            cluster.providersChanged(List.of(restarted));
            assertEquals(List.of("plain", "tls"), opened, "the port speaks TLS now: a TLS endpoint");
            assertEquals(List.of(restarted), cluster.providers());
            assertEquals("p", call(cluster));
        }
    }

    @Test
    void disabledProvidersAreNotCalled() throws Exception {
        try (Ferry on = provider("on"); Ferry off = provider("off");
             RegistryDirectory cluster = directory(ClientOptions.defaults())) {
            ProviderInstance disabled = new ProviderInstance("127.0.0.1", off.port(), WhoAmI.class.getName(), "",
                    "", Set.of("who"), 100, true, "test");
            cluster.providersChanged(List.of(at(on.port()), disabled));
            assertEquals(1, cluster.providers().size());
            for (int i = 0; i < 10; i++) {
                assertEquals("on", call(cluster));
            }
        }
    }

    @Test
    void aHalfOpenProviderIsNeverUsedWhileAnotherAnswers() throws Exception {
        try (Ferry good = provider("good");
             ServerSocket neverAccepts = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
             RegistryDirectory cluster = directory(ClientOptions.builder()
                     .connectTimeout(Duration.ofMillis(300)).build())) {
            cluster.providersChanged(List.of(at(good.port()), at(neverAccepts.getLocalPort())));
            for (int i = 0; i < 30; i++) {
                assertEquals("good", call(cluster));
            }
        }
    }

    @Test
    void aProviderBoundToEveryAddressAdvertisesARealOneNotLoopback() {
        assertEquals("10.1.2.3", RegistryUrls.advertisedHost("10.1.2.3", null), "an explicit address wins");
        assertEquals("127.0.0.1", RegistryUrls.advertisedHost(null, "127.0.0.1"), "else the bound one");
        String derived = RegistryUrls.advertisedHost(null, "0.0.0.0");
        assertFalse(derived.startsWith("127.0.1."), "not the host name's Debian loopback alias: " + derived);
        assertTrue(derived.matches("\\d+\\.\\d+\\.\\d+\\.\\d+"), derived);
    }
}
