package io.ferry.rpc.config;

import com.fasterxml.jackson.databind.JsonNode;
import io.ferry.rpc.RpcException;
import io.ferry.rpc.RpcExport;
import io.ferry.rpc.RpcStatus;
import io.ferry.rpc.config.fixtures.AdminClient;
import io.ferry.rpc.config.fixtures.Named;
import io.ferry.rpc.config.fixtures.UserService;
import io.ferry.rpc.config.fixtures.UserServiceImpl;
import io.ferry.rpc.config.fixtures.Answers;
import io.ferry.rpc.config.fixtures.WhoAmI;
import io.ferry.rpc.config.fixtures.ZooKeeperFixture;
import io.ferry.rpc.config.option.Options;
import io.ferry.rpc.config.option.Resolved;
import io.ferry.rpc.registry.ServiceUrl;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Dubbo's provider-side settings between real Ferry providers and consumers through a real ZooKeeper: what a
 * service sets goes into its registry URL as Dubbo writes it, and consumers take it below their own settings.
 */
class ProviderSettingsTest {
    @RegisterExtension
    final ZooKeeperFixture zk = new ZooKeeperFixture();
    private final AdminClient admin = new AdminClient();

    @TempDir
    Path dir;

    private Ferry provider(String name) {
        return zk.track(Ferry.builder().application(ApplicationConfig.of(name))
                .protocol(ProtocolConfig.builder().host("127.0.0.1").port(0).build())
                .registry(zk.registry(name + ".cache")).build());
    }

    private Ferry consumer(String name) {
        return zk.track(Ferry.builder().application(ApplicationConfig.builder().name(name).qosEnable(true)
                .qosPort(0).build()).registry(zk.registry(name + ".cache")).build());
    }

    @Test
    void aServicesSettingsGoIntoItsRegistryUrlAsDubboWritesThem() throws Exception {
        provider("p").export(ServiceConfig.builder(WhoAmI.class, new Named("p")).timeout(Duration.ofSeconds(2))
                .retries(0).loadBalance("RoundRobin").actives(5).weight(300).warmup(Duration.ofMinutes(2))
                .set(Options.CLUSTER, "failfast")
                .method(MethodConfig.builder("hold").timeout(Duration.ofMillis(150)).retries(1).build()).build());
        ServiceUrl url = zk.registeredProviders(WhoAmI.class).get(0);
        Map<String, String> expected = Map.of("timeout", "2000", "retries", "0", "loadbalance", "roundrobin",
                "actives", "5", "weight", "300", "warmup", "120000", "cluster", "failfast", "hold.timeout", "150",
                "hold.retries", "1");
        expected.forEach((key, value) -> assertEquals(value, url.parameter(key), key + " in " + url));
        assertFalse(url.parameters().containsKey("who.timeout"), "a method that sets nothing writes nothing");

        provider("q").export(ServiceConfig.builder(io.ferry.rpc.config.fixtures.DemoService.class,
                new io.ferry.rpc.config.fixtures.DemoServiceImpl()).build());
        ServiceUrl plain = zk.registeredProviders(io.ferry.rpc.config.fixtures.DemoService.class).get(0);
        for (String key : expected.keySet()) {
            assertFalse(plain.parameters().containsKey(key), "left to its default, " + key + " is not written");
        }
    }

    @Test
    void aFilesProviderAndServiceSettingsAreTakenAndWritten() throws Exception {
        Path file = Files.writeString(dir.resolve("provider.xml"), """
                <?xml version="1.0" encoding="UTF-8"?>
                <ferry:config xmlns:ferry="http://ferry.io/schema/ferry">
                  <ferry:application name="xml-provider"/>
                  <ferry:registry address="zookeeper://127.0.0.1:%d" file="none"/>
                  <ferry:protocol name="dubbo" host="127.0.0.1" port="0"/>
                  <ferry:provider retries="0" weight="50" loadbalance="random" warmup="60000"/>
                  <ferry:service interface="%s" class="%s" weight="200" loadbalance="roundrobin"
                                 cluster="failsafe" actives="9">
                    <ferry:method name="hello" timeout="300" retries="1" actives="1"/>
                  </ferry:service>
                </ferry:config>
                """.formatted(zk.server().port(), UserService.class.getName(), UserServiceImpl.class.getName()));
        zk.track(Ferry.fromXml(file));
        ServiceUrl url = zk.registeredProviders(UserService.class).get(0);
        Map<String, String> expected = Map.of("retries", "0", "weight", "200", "loadbalance", "roundrobin",
                "warmup", "60000", "cluster", "failsafe", "actives", "9", "hello.timeout", "300", "hello.retries",
                "1", "hello.actives", "1");
        expected.forEach((key, value) -> assertEquals(value, url.parameter(key), key + " in " + url));
    }

    @Test
    void aConsumerTakesItsProvidersTimeoutBelowItsOwn() throws Exception {
        Named held = new Named("p");
        provider("p").export(ServiceConfig.builder(WhoAmI.class, held).timeout(Duration.ofSeconds(5)).retries(0)
                .method(MethodConfig.builder("hold").timeout(Duration.ofMillis(150)).build()).build());
        Ferry consumer = consumer("c");
        try {
            WhoAmI taking = consumer.reference(ReferenceConfig.builder(WhoAmI.class).id("taking").build());
            RpcException timedOut = assertThrows(RpcException.class, taking::hold);
            assertEquals(RpcStatus.TIMEOUT, timedOut.status(), timedOut.getMessage());
            // under load the provider may drop the request first, past "the 150 ms its caller had left": the same 150
            assertTrue(timedOut.getMessage().contains("150 ms"),
                    "the provider's method's timeout: " + timedOut.getMessage());

            // Dubbo's order: the method level first, then the whole; at one level, the consumer's first
            Ferry other = zk.track(Ferry.builder().application(ApplicationConfig.of("c2"))
                    .registry(zk.registry("c2.cache")).build());
            WhoAmI own = other.reference(ReferenceConfig.builder(WhoAmI.class).timeout(Duration.ofSeconds(3))
                    .method(MethodConfig.builder("hold").timeout(Duration.ofMillis(400)).build()).build());
            RpcException ownTimeout = assertThrows(RpcException.class, own::hold);
            assertTrue(ownTimeout.getMessage().contains("400 ms"),
                    "the consumer's own for the method wins: " + ownTimeout.getMessage());
            WhoAmI whole = other.reference(ReferenceConfig.builder(WhoAmI.class).timeout(Duration.ofMillis(400))
                    .build());
            RpcException methodTimeout = assertThrows(RpcException.class, whole::hold);
            assertTrue(methodTimeout.getMessage().contains("150 ms"),
                    "the provider's for the method beats the consumer's for the whole: " + methodTimeout.getMessage());

            JsonNode reference = admin.get(consumer, "/services").json().get("references").get(0);
            String from = "provider URL of " + reference.get("providers").get(0).get("address").asText();
            assertEquals("5000 ms " + from, setting(reference, "timeout", null));
            assertEquals("150 ms " + from, setting(reference, "timeout", "hold"));
            assertEquals("0 " + from, setting(reference, "retries", null));
            assertEquals("adaptive default", setting(reference, "loadBalance", null));
        } finally {
            held.release.countDown();
        }
    }

    @Test
    void aConsumerLimitsItsCallsInFlightByItsProvidersActives() throws Exception {
        Named held = new Named("p");
        provider("p").export(ServiceConfig.builder(WhoAmI.class, held)
                .method(MethodConfig.builder("hold").actives(1).build()).build());
        WhoAmI who = consumer("c").reference(ReferenceConfig.builder(WhoAmI.class).timeout(Duration.ofSeconds(10))
                .build());
        CompletableFuture<String> first = CompletableFuture.supplyAsync(who::hold);
        try {
            assertTrue(held.held.await(10, TimeUnit.SECONDS), "the first call runs on the provider");
            RpcException second = assertThrows(RpcException.class, who::hold);
            assertEquals(RpcStatus.LIMIT_EXCEEDED, second.status(), second.getMessage());
            assertTrue(second.getMessage().contains("(actives = 1)"), second.getMessage());
            assertEquals("p", who.who(), "another method has no limit");
        } finally {
            held.release.countDown();
        }
        assertEquals("p", first.get(10, TimeUnit.SECONDS));
    }

    @Test
    void aConsumerBalancesByItsProvidersLoadBalanceAndWeights() {
        for (String name : new String[] {"heavy", "light"}) {
            provider(name).export(ServiceConfig.builder(WhoAmI.class, new Named(name)).loadBalance("roundrobin")
                    .weight(name.equals("heavy") ? 300 : 100).warmup(Duration.ZERO).build());
        }
        WhoAmI who = consumer("c").reference(ReferenceConfig.builder(WhoAmI.class).build());
        Map<String, Integer> counts = Answers.counted(who, 2, 400, Duration.ofSeconds(15));
        assertEquals(Map.of("heavy", 300, "light", 100), counts,
                "the providers' roundrobin, by their weights 3:1, exactly");
    }

    @Test
    void aMethodsLoadBalanceIsItsCallsOwnOnEitherSide() throws Exception {
        for (String name : new String[] {"heavy", "light"}) {
            provider(name).export(ServiceConfig.builder(WhoAmI.class, new Named(name))
                    .method(MethodConfig.builder("who").loadBalance("roundrobin").build())
                    .weight(name.equals("heavy") ? 300 : 100).warmup(Duration.ZERO).build());
        }
        assertEquals("roundrobin", zk.registeredProviders(WhoAmI.class).get(0).parameters().get("who.loadbalance"),
                "a service's method's, in its URL as Dubbo writes it");

        WhoAmI taking = consumer("taking").reference(ReferenceConfig.builder(WhoAmI.class).build());
        assertEquals(Map.of("heavy", 300, "light", 100), roundsOf(taking),
                "a consumer that names none takes the providers' method's roundrobin");
        WhoAmI own = consumer("own").reference(ReferenceConfig.builder(WhoAmI.class).loadBalance("random")
                .method(MethodConfig.builder("who").loadBalance("roundrobin").build()).build());
        assertEquals(Map.of("heavy", 300, "light", 100), roundsOf(own),
                "a consumer's method's roundrobin beats its reference's random");
    }

    /** Who answers 400 calls, once both providers answer: exactly 3:1 under weighted round robin. */
    private static Map<String, Integer> roundsOf(WhoAmI who) {
        return Answers.counted(who, 2, 400, Duration.ofSeconds(15));
    }

    /** A provider's weight and warm-up given by its annotation. */
    @RpcExport(weight = 250, warmupMillis = 0)
    static final class Annotated extends Named {
        Annotated() {
            super("annotated");
        }
    }

    /** A weight no provider may have. */
    @RpcExport(weight = -5)
    static final class Negative extends Named {
        Negative() {
            super("negative");
        }
    }

    @Test
    void theAnnotationGivesWeightAndWarmUpAndEveryFormRefusesWhatIsNotOne() {
        Ferry ferry = provider("a");
        Resolved annotated = ferry.settingsOf(ServiceConfig.builder(WhoAmI.class, new Annotated()).build());
        assertEquals(250, annotated.get(Options.WEIGHT));
        assertEquals(Duration.ZERO, annotated.get(Options.WARMUP));
        assertEquals("@RpcExport on " + Annotated.class.getName(),
                annotated.setting(Options.WEIGHT, null).where());
        Resolved plain = ferry.settingsOf(ServiceConfig.builder(WhoAmI.class, new Named("n")).build());
        assertEquals(100, plain.get(Options.WEIGHT), "Dubbo's default");
        assertEquals(Duration.ofMinutes(10), plain.get(Options.WARMUP), "Dubbo's default");

        IllegalArgumentException negative = assertThrows(IllegalArgumentException.class,
                () -> ServiceConfig.builder(WhoAmI.class, new Negative()).build());
        assertEquals("@RpcExport(weight) on " + Negative.class.getName() + ": weight: -5 (expected: 0..1000000)",
                negative.getMessage());
        IllegalArgumentException warmup = assertThrows(IllegalArgumentException.class,
                () -> ServiceConfig.builder(WhoAmI.class, new Named("n")).warmup(Duration.ofMillis(-1)));
        assertEquals("warmup: -1ms (expected: >= 0)", warmup.getMessage());
        IllegalArgumentException onReference = assertThrows(IllegalArgumentException.class,
                () -> ReferenceConfig.builder(WhoAmI.class).set(Options.WEIGHT, 5));
        assertTrue(onReference.getMessage().startsWith("weight: not an option of a reference"),
                onReference.getMessage());
    }

    /** "value from" of the setting row for {@code option} (and {@code method}, or none) of a reference or service. */
    private static String setting(JsonNode node, String option, String method) {
        for (JsonNode row : node.get("settings")) {
            boolean sameMethod = method == null ? !row.has("method") : method.equals(row.path("method").asText());
            if (row.get("option").asText().equals(option) && sameMethod) {
                return row.get("value").asText() + " " + row.get("from").asText();
            }
        }
        throw new AssertionError("no setting " + option + " [" + method + "] in " + node);
    }
}
