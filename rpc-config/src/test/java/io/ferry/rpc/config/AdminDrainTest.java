package io.ferry.rpc.config;

import com.fasterxml.jackson.databind.JsonNode;
import io.ferry.rpc.RpcContext;
import io.ferry.rpc.config.fixtures.AdminClient;
import io.ferry.rpc.config.fixtures.Named;
import io.ferry.rpc.config.fixtures.WhoAmI;
import io.ferry.rpc.config.fixtures.ZooKeeperFixture;
import io.ferry.rpc.registry.ServiceUrl;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.net.ConnectException;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Readiness, offline and online through a real ZooKeeper in this process, over real HTTP: what a deploy does to a
 * provider (offline, wait, stop) and to the consumers calling it meanwhile.
 */
class AdminDrainTest {
    @RegisterExtension
    final ZooKeeperFixture zk = new ZooKeeperFixture();
    private final AdminClient admin = new AdminClient();

    /** A provider with the admin port and the test's ZooKeeper, exporting nothing yet. */
    private Ferry provider(String name) {
        return zk.track(Ferry.builder()
                .application(ApplicationConfig.builder().name(name).qosEnable(true).qosPort(0).build())
                .protocol(ProtocolConfig.builder().host("127.0.0.1").port(0)
                        .shutdown(Duration.ofMillis(300), Duration.ofSeconds(30)).build())
                .registry(zk.registry(name + ".cache")).shutdownHook(false).build());
    }

    private Ferry plainProvider(String name, Named service) {
        Ferry ferry = zk.track(Ferry.builder().application(ApplicationConfig.of(name))
                .protocol(ProtocolConfig.builder().host("127.0.0.1").port(0).build())
                .registry(zk.registry(name + ".cache")).shutdownHook(false).build());
        ferry.export(ServiceConfig.builder(WhoAmI.class, service).build());
        return ferry;
    }

    private Ferry consumer() {
        return zk.track(Ferry.builder().application(ApplicationConfig.of("consumer"))
                .registry(zk.registry("consumer.cache")).shutdownHook(false).build());
    }

    private static WhoAmI direct(Ferry consumer, int port) {
        return consumer.reference(ReferenceConfig.builder(WhoAmI.class).url("dubbo://127.0.0.1:" + port)
                .timeout(Duration.ofSeconds(60)).build());
    }

    private JsonNode ready(Ferry ferry, int expectedStatus) throws Exception {
        AdminClient.Answer answer = admin.get(ferry, "/health/ready");
        assertEquals(expectedStatus, answer.status(), answer.body());
        return answer.json();
    }

    @Test
    void readinessFollowsExportRegistrationOfflineAndOnline() throws Exception {
        Ferry provider = provider("p1");
        assertEquals("nothing exported or referenced yet", ready(provider, 503).get("reason").asText());

        provider.export(ServiceConfig.builder(WhoAmI.class, new Named("p1")).build());
        ready(provider, 200);
        List<ServiceUrl> registered = zk.registeredProviders(WhoAmI.class);
        assertEquals(1, registered.size());
        assertTrue(admin.get(provider, "/services").json().get("services").get(0).get("registered").asBoolean());

        JsonNode offline = admin.post(provider, "/offline").json();
        assertEquals(1, offline.get("unregistered").asInt());
        assertTrue(offline.get("drained").asBoolean(), offline.toString());
        assertEquals(List.of(), zk.registeredProviders(WhoAmI.class));
        assertEquals("offline: POST /online to take calls again", ready(provider, 503).get("reason").asText());
        JsonNode service = admin.get(provider, "/services").json().get("services").get(0);
        assertFalse(service.get("registered").asBoolean());
        assertTrue(service.get("offline").asBoolean());

        JsonNode online = admin.post(provider, "/online").json();
        assertEquals(1, online.get("registered").asInt());
        // the very URL it had, timestamp included: consumers see the provider they knew, not a fresh start
        assertEquals(registered, zk.registeredProviders(WhoAmI.class));
        ready(provider, 200);
    }

    @Test
    void aServiceExportedWhileOfflineWaitsForOnline() throws Exception {
        Ferry provider = provider("p1");
        provider.export(ServiceConfig.builder(WhoAmI.class, new Named("p1")).build());
        admin.post(provider, "/offline");
        provider.export(ServiceConfig.builder(WhoAmI.class, new Named("p1-v2")).version("2").build());
        assertEquals(List.of(), zk.registeredProviders(WhoAmI.class));
        assertEquals(2, admin.post(provider, "/online").json().get("registered").asInt());
        assertEquals(2, zk.registeredProviders(WhoAmI.class).size());
    }

    @Test
    void offlineAnswersWhenTheLastCallInFlightEndsOrAtItsBound() throws Exception {
        Ferry provider = provider("p1");
        Named p1 = new Named("p1");
        int port = provider.export(ServiceConfig.builder(WhoAmI.class, p1).build());
        WhoAmI who = direct(consumer(), port);
        CompletableFuture<String> held = RpcContext.async(who::hold);
        assertTrue(p1.held.await(20, TimeUnit.SECONDS));

        CompletableFuture<AdminClient.Answer> draining = admin.send(provider, "POST", "/offline?timeoutMs=60000");
        await("offline is in").atMost(Duration.ofSeconds(20))
                .until(() -> admin.get(provider, "/health/ready").status() == 503);
        // the drain waits on the Ferry's timer: the admin thread answers meanwhile, a bounded offline included
        assertEquals(200, admin.get(provider, "/health/live").status());
        JsonNode bounded = admin.post(provider, "/offline?timeoutMs=200").json();
        assertFalse(bounded.get("drained").asBoolean(), bounded.toString());
        assertEquals(1, bounded.get("inFlight").asInt());
        assertTrue(bounded.get("waitedMs").asLong() >= 200, bounded.toString());
        assertEquals(1, bounded.get("readonlySent").asInt());
        assertFalse(draining.isDone(), "a call is still in flight");

        p1.release.countDown();
        assertEquals("p1", held.get(20, TimeUnit.SECONDS));
        JsonNode drained = draining.get(30, TimeUnit.SECONDS).json();
        assertTrue(drained.get("drained").asBoolean(), drained.toString());
        assertEquals(0, drained.get("inFlight").asInt());
    }

    @Test
    void consumersCallingAcrossOfflineAndOnlineSeeNoFailureAndComeBackAtOnce() throws Exception {
        Ferry p1 = provider("p1");
        p1.export(ServiceConfig.builder(WhoAmI.class, new Named("p1", TimeUnit.MILLISECONDS.toNanos(1))).build());
        plainProvider("p2", new Named("p2", TimeUnit.MILLISECONDS.toNanos(1)));
        WhoAmI who = consumer().reference(ReferenceConfig.builder(WhoAmI.class).timeout(Duration.ofSeconds(5))
                .build());

        Map<String, AtomicInteger> served = new ConcurrentHashMap<>(Map.of("p1", new AtomicInteger(),
                "p2", new AtomicInteger()));
        ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
        AtomicBoolean running = new AtomicBoolean(true);
        CountDownLatch callersDone = new CountDownLatch(4);
        for (int t = 0; t < 4; t++) {
            new Thread(() -> {
                while (running.get()) {
                    try {
                        served.get(who.who()).incrementAndGet();
                    } catch (Throwable e) {
                        failures.add(e);
                    }
                }
                callersDone.countDown();
            }, "caller-" + t).start();
        }
        try {
            await("both providers took calls").atMost(Duration.ofSeconds(20))
                    .until(() -> served.get("p1").get() > 50 && served.get("p2").get() > 50);

            assertEquals(200, admin.post(p1, "/offline").status());
            awaitMore(served.get("p2"), 200); // the consumer has heard both the registry and the readonly event
            int p1Offline = served.get("p1").get();
            awaitMore(served.get("p2"), 300);
            assertEquals(p1Offline, served.get("p1").get(), "no call reached p1 while it was offline");

            assertEquals(200, admin.post(p1, "/online").status());
            // well within the 15 s a consumer keeps a departed provider's connections, and the 10 minutes of a
            // warm-up a new registry timestamp would start
            await("p1 takes calls again").atMost(Duration.ofSeconds(5))
                    .until(() -> served.get("p1").get() > p1Offline + 50);
        } finally {
            running.set(false);
        }
        assertTrue(callersDone.await(30, TimeUnit.SECONDS));
        assertEquals(List.of(), new ArrayList<>(failures), "no call failed");
    }

    @Test
    void aConsumerStillConnectedIsToldReadonlyThenWritable() throws Exception {
        Ferry provider = provider("p1");
        int port = provider.export(ServiceConfig.builder(WhoAmI.class, new Named("p1")).build());
        Ferry consumer = consumer();
        WhoAmI who = direct(consumer, port); // no registry to hear from: only the events tell it
        assertEquals("p1", who.who());

        admin.post(provider, "/offline");
        await("readonly").atMost(Duration.ofSeconds(20)).until(() -> state(consumer).equals("READONLY"));
        assertEquals("p1", who.who(), "with no other provider, a call still goes there, and is served");
        assertEquals("READONLY", admin.get(provider, "/connections").json().get("provider").get("connections")
                .get(0).get("state").asText());

        admin.post(provider, "/online");
        // without the writeable event the connection would stay readonly for as long as it lives
        await("writable again").atMost(Duration.ofSeconds(20)).until(() -> state(consumer).equals("READY"));
    }

    private static String state(Ferry consumer) {
        return consumer.consumerConnections().connections().get(0).state().name();
    }

    private static void awaitMore(AtomicInteger count, int more) {
        int target = count.get() + more;
        await("another " + more + " calls").atMost(Duration.ofSeconds(20)).until(count::get, n -> n >= target);
    }

    @Test
    void closingIsNotReadyUntilTheVeryEndAndRefusesCommands() throws Exception {
        Ferry provider = provider("p1");
        Named p1 = new Named("p1");
        int port = provider.export(ServiceConfig.builder(WhoAmI.class, p1).build());
        int adminPort = provider.adminPort();
        CompletableFuture<String> held = RpcContext.async(direct(consumer(), port)::hold);
        assertTrue(p1.held.await(20, TimeUnit.SECONDS));

        CompletableFuture<Void> closed = CompletableFuture.runAsync(provider::close);
        await("closing").atMost(Duration.ofSeconds(20))
                .until(() -> admin.get(provider, "/health/ready").status() == 503);
        assertEquals("shutting down", ready(provider, 503).get("reason").asText());
        JsonNode live = admin.get(provider, "/health/live").json();
        assertTrue(live.get("live").asBoolean());
        assertTrue(live.get("closing").asBoolean());
        assertEquals(503, admin.post(provider, "/offline").status());
        assertFalse(closed.isDone(), "the held call keeps the close waiting");

        p1.release.countDown();
        assertEquals("p1", held.get(20, TimeUnit.SECONDS));
        closed.get(30, TimeUnit.SECONDS);
        assertThrows(ConnectException.class, () -> new Socket("127.0.0.1", adminPort).close());
    }
}
