package io.ferry.rpc.config;

import io.ferry.rpc.RpcContext;
import io.ferry.rpc.RpcException;
import io.ferry.rpc.config.fixtures.UserService;
import io.ferry.rpc.config.fixtures.UserServiceImpl;
import io.ferry.rpc.config.fixtures.ZooKeeperFixture;
import io.ferry.rpc.config.internal.files.Sources;
import io.ferry.rpc.config.observation.FerryMeterNames;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static io.ferry.rpc.config.FerryMetersTest.value;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The meters a registry brings, against a real ZooKeeper in this process: its session's state, the providers it
 * lists per service, the providers ejected, retries and the retry budget; and every meter's description, unit and
 * tags, and its row in the README.
 */
class RegistryMetersTest {
    private static final String SERVICE = UserService.class.getName();

    @RegisterExtension
    final ZooKeeperFixture zk = new ZooKeeperFixture();

    private final SimpleMeterRegistry meters = new SimpleMeterRegistry();

    private Ferry provider(String name, UserService impl, int threads) {
        Ferry ferry = zk.track(Ferry.builder().shutdownHook(false).sources(Sources.none())
                .protocol(ProtocolConfig.builder().host("127.0.0.1").port(0).threads(threads).build())
                .registry(zk.registry(name + ".cache")).build());
        ferry.export(ServiceConfig.builder(UserService.class, impl).build());
        return ferry;
    }

    private Ferry consumer(SimpleMeterRegistry into) {
        return zk.track(Ferry.builder().shutdownHook(false).sources(Sources.none())
                .registry(zk.registry("consumer-" + System.identityHashCode(into) + ".cache"))
                .observability(Observability.meters(into)).build());
    }

    private double state(String state) {
        return value(meters, FerryMeterNames.REGISTRY_STATE, "state", state);
    }

    @Test
    void providerCountsFollowTheRegistryAndTheStateFollowsTheSession() {
        provider("one", new UserServiceImpl(), 10);
        Ferry leaving = provider("two", new UserServiceImpl(), 10);
        Ferry consumer = consumer(meters);
        consumer.reference(ReferenceConfig.builder(UserService.class).build()).hello("a");

        await().until(() -> value(meters, FerryMeterNames.PROVIDERS, "rpc.service", SERVICE) == 2);
        assertEquals(1, state("connected"));
        assertEquals(0, state("suspended") + state("lost"));

        leaving.close();
        await().until(() -> value(meters, FerryMeterNames.PROVIDERS, "rpc.service", SERVICE) == 1);

        zk.server().stop();
        await().until(() -> state("connected") == 0 && state("suspended") + state("lost") == 1);
        zk.server().restart();
        await().atMost(Duration.ofSeconds(20)).until(() -> state("connected") == 1);
    }

    @Test
    void aProviderThatStopsAnsweringIsCountedEjected() {
        CountDownLatch frozen = new CountDownLatch(1);
        provider("healthy", new UserServiceImpl(), 10);
        provider("frozen", new UserServiceImpl() {
            @Override
            public String hello(String name) {
                try {
                    frozen.await(30, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                return super.hello(name);
            }
        }, 10);
        UserService users = consumer(meters).reference(ReferenceConfig.builder(UserService.class)
                .timeout(Duration.ofMillis(200)).retries(0)
                .outlierEjection(new OutlierEjection(true, 1, Duration.ofMinutes(1), Duration.ofMinutes(1), 50))
                .build());
        try {
            assertEquals(0, value(meters, FerryMeterNames.PROVIDERS_EJECTED, "rpc.service", SERVICE));
            // each poll calls once: the balancer picks the frozen provider sooner or later, and its timeout ejects it
            await().until(() -> {
                callIgnoringFailure(users);
                return value(meters, FerryMeterNames.PROVIDERS_EJECTED, "rpc.service", SERVICE) == 1;
            });
        } finally {
            frozen.countDown();
        }
    }

    private static void callIgnoringFailure(UserService users) {
        try {
            users.hello("x");
        } catch (RpcException timedOut) {
            // the frozen provider's: what the meter is about
        }
    }

    @Test
    void retriesAndRetriesTheBudgetRefusesAreCounted() throws Exception {
        UserServiceImpl busy = new UserServiceImpl();
        Ferry full = provider("full", busy, 1);
        provider("free", new UserServiceImpl(), 10);
        // the one thread of "full" held: a call it gets is refused unrun, and may move to "free"
        Ferry holder = zk.track(Ferry.builder().shutdownHook(false).sources(Sources.none()).build());
        UserService direct = holder.reference(ReferenceConfig.builder(UserService.class)
                .url("dubbo://127.0.0.1:" + full.port()).timeout(Duration.ofSeconds(30)).build());
        CompletableFuture<String> held = RpcContext.async(() -> direct.block("hold"));
        try {
            assertTrue(busy.blockedEntered.await(10, TimeUnit.SECONDS));

            UserService users = consumer(meters).reference(ReferenceConfig.builder(UserService.class).build());
            await().until(() -> {
                users.hello("x"); // never fails: a refused attempt moves to the free provider
                return value(meters, FerryMeterNames.RETRIES, "rpc.service", SERVICE) >= 1;
            });
            assertEquals(0, value(meters, FerryMeterNames.RETRIES_REFUSED, "rpc.service", SERVICE));
            assertTrue(value(meters, FerryMeterNames.RETRY_BUDGET_LEFT, "rpc.service", SERVICE) >= 99,
                    "10 a second over 10 s, less the retries taken");

            SimpleMeterRegistry strictMeters = new SimpleMeterRegistry();
            UserService strict = consumer(strictMeters).reference(ReferenceConfig.builder(UserService.class)
                    .retryBudget(new RetryBudget(0, 0)).build());
            await().until(() -> {
                callIgnoringFailure(strict);
                return value(strictMeters, FerryMeterNames.RETRIES_REFUSED, "rpc.service", SERVICE) >= 1;
            });
            assertEquals(0, value(strictMeters, FerryMeterNames.RETRIES, "rpc.service", SERVICE));
            assertEquals(0, value(strictMeters, FerryMeterNames.RETRY_BUDGET_LEFT, "rpc.service", SERVICE));
        } finally {
            busy.release.countDown();
        }
        assertEquals("released hold", held.get(10, TimeUnit.SECONDS));
    }

    @Test
    void everyMeterIsDescribedHasItsUnitAllowedTagsOnlyAndARowInTheReadme() throws Exception {
        // one Ferry that exports and references through the registry: every kind of meter there is
        Ferry ferry = zk.track(Ferry.builder().shutdownHook(false).sources(Sources.none())
                .protocol(ProtocolConfig.builder().host("127.0.0.1").port(0).build())
                .registry(zk.registry("all.cache")).observability(Observability.meters(meters)).build());
        ferry.export(ServiceConfig.builder(UserService.class, new UserServiceImpl()).build());
        ferry.reference(ReferenceConfig.builder(UserService.class).build()).hello("a");

        List<Meter> ours = meters.getMeters().stream().filter(m -> m.getId().getName().startsWith("ferry.")).toList();
        Set<String> names = new TreeSet<>();
        List<String> wrong = new ArrayList<>();
        for (Meter meter : ours) {
            Meter.Id id = meter.getId();
            names.add(id.getName());
            if (id.getDescription() == null || id.getDescription().isBlank()) {
                wrong.add(id + ": no description");
            }
            boolean flag = id.getName().equals(FerryMeterNames.REGISTRY_STATE);
            if (flag != (id.getBaseUnit() == null)) {
                wrong.add(id + ": base unit " + id.getBaseUnit());
            }
            for (Tag tag : id.getTags()) {
                if (!FerryMeterNames.TAG_KEYS.contains(tag.getKey()) || tag.getValue().contains("127.0.0.1")) {
                    wrong.add(id + ": tag " + tag);
                }
            }
        }
        assertEquals(List.of(), wrong);
        assertEquals(declaredNames(), names, "every meter Ferry declares, and no other, is registered");

        String section = readmeMetersSection();
        for (String name : names) {
            assertTrue(section.contains("`" + name + "`"), name + " has no row in the README's Meters table");
        }
    }

    /** Every meter name {@link FerryMeterNames} declares. */
    static Set<String> declaredNames() throws IllegalAccessException {
        Set<String> names = new TreeSet<>();
        for (Field field : FerryMeterNames.class.getFields()) {
            if (Modifier.isStatic(field.getModifiers()) && field.get(null) instanceof String value
                    && value.startsWith("ferry.")) {
                names.add(value);
            }
        }
        return names;
    }

    private static String readmeMetersSection() throws IOException {
        String readme = Files.readString(Path.of("..", "README.md"));
        int start = readme.indexOf("### Meters");
        assertTrue(start >= 0, "the README has a \"### Meters\" section");
        int end = readme.indexOf("\n## ", start);
        int next = readme.indexOf("\n### ", start + 1);
        int stop = Math.min(end < 0 ? readme.length() : end, next < 0 ? readme.length() : next);
        return readme.substring(start, stop);
    }
}
