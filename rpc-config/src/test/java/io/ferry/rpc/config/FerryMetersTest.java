package io.ferry.rpc.config;

import io.ferry.rpc.RpcContext;
import io.ferry.rpc.RpcException;
import io.ferry.rpc.RpcStatus;
import io.ferry.rpc.Ticker;
import io.ferry.rpc.config.fixtures.FerryFixture;
import io.ferry.rpc.config.fixtures.UserService;
import io.ferry.rpc.config.fixtures.UserServiceImpl;
import io.ferry.rpc.config.internal.files.Sources;
import io.ferry.rpc.config.observation.FerryMeterNames;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Ferry's gauges and counters beside the calls' timers, one consumer and one provider over a direct url, each with a
 * meter registry of its own: every meter shows what the situation makes, and none is left once its Ferry closes.
 * The registry's meters (state, providers, ejections, retries) are in {@link RegistryMetersTest}.
 */
class FerryMetersTest {
    private static final String SERVICE = UserService.class.getName();

    @RegisterExtension
    final FerryFixture ferries = new FerryFixture();

    private final SimpleMeterRegistry consumerMeters = new SimpleMeterRegistry();
    private final SimpleMeterRegistry providerMeters = new SimpleMeterRegistry();
    private final UserServiceImpl impl = new UserServiceImpl();
    private Ferry provider;
    private Ferry consumer;

    /** A provider with {@code threads} business threads and {@code queues} places, and a consumer of it. */
    private UserService users(int threads, int queues, Duration timeout) {
        provider = ferries.track(Ferry.builder().shutdownHook(false).sources(Sources.none())
                .protocol(ProtocolConfig.builder().host("127.0.0.1").port(0).threads(threads).queues(queues).build())
                .observability(Observability.meters(providerMeters)).build());
        int port = provider.export(ServiceConfig.builder(UserService.class, impl).build());
        consumer = ferries.track(Ferry.builder().shutdownHook(false).sources(Sources.none())
                .observability(Observability.meters(consumerMeters)).build());
        return consumer.reference(ReferenceConfig.builder(UserService.class).url("dubbo://127.0.0.1:" + port)
                .timeout(timeout).retries(0).build());
    }

    static double value(MeterRegistry meters, String name, String... tags) {
        Meter meter = meters.get(name).tags(tags).meter();
        double sum = 0;
        for (var measurement : meter.measure()) {
            sum += measurement.getValue();
        }
        return sum;
    }

    static List<String> ferryMeters(MeterRegistry meters) {
        return meters.getMeters().stream().map(m -> m.getId().getName()).filter(n -> n.startsWith("ferry.")).toList();
    }

    @Test
    void aHeldCallIsInFlightOnBothSidesHoldsThePoolsThreadAndTheNextIsRefused() throws Exception {
        UserService users = users(1, 0, Duration.ofSeconds(20));
        CompletableFuture<String> held = RpcContext.async(() -> users.block("held"));
        assertTrue(impl.blockedEntered.await(10, TimeUnit.SECONDS));

        assertEquals(1, value(consumerMeters, FerryMeterNames.CALLS_ACTIVE, "side", "client", "rpc.service", SERVICE));
        assertEquals(1, value(providerMeters, FerryMeterNames.CALLS_ACTIVE, "side", "server", "rpc.service", SERVICE));
        assertEquals(1, value(providerMeters, FerryMeterNames.POOL_ACTIVE, "pool", "shared"));
        assertEquals(0, value(providerMeters, FerryMeterNames.POOL_QUEUED, "pool", "shared"));
        assertEquals(1, value(providerMeters, FerryMeterNames.POOL_CAPACITY, "pool", "shared"));
        assertEquals(1, value(consumerMeters, FerryMeterNames.CONNECTIONS, "side", "client", "state", "ready"));
        assertEquals(0, value(consumerMeters, FerryMeterNames.CONNECTIONS, "side", "client", "state", "connecting"));
        assertEquals(1, value(providerMeters, FerryMeterNames.CONNECTIONS, "side", "server", "state", "ready"));

        RpcException refused = assertThrows(RpcException.class, () -> users.hello("no thread left"));
        assertEquals(RpcStatus.THREADPOOL_EXHAUSTED, refused.status());
        assertEquals(1, value(providerMeters, FerryMeterNames.POOL_REFUSED, "pool", "shared"));

        impl.release.countDown();
        assertEquals("released held", held.get(10, TimeUnit.SECONDS));
        // each side counts the call out in a callback of its own, which may run a moment after the caller has it
        await().until(() -> value(consumerMeters, FerryMeterNames.CALLS_ACTIVE, "rpc.service", SERVICE) == 0
                && value(providerMeters, FerryMeterNames.CALLS_ACTIVE, "rpc.service", SERVICE) == 0
                && value(providerMeters, FerryMeterNames.POOL_ACTIVE, "pool", "shared") == 0);
    }

    @Test
    void bytesGrowWithCallsEachWay() {
        UserService users = users(4, 0, Duration.ofSeconds(5));
        users.hello("warm");
        double sent = value(consumerMeters, FerryMeterNames.BYTES, "side", "client", "direction", "out");
        double received = value(consumerMeters, FerryMeterNames.BYTES, "side", "client", "direction", "in");
        assertTrue(sent > 0 && received > 0, sent + " / " + received);

        assertEquals(100_000, users.big(100_000).length());
        assertTrue(value(consumerMeters, FerryMeterNames.BYTES, "side", "client", "direction", "in")
                >= received + 100_000);
        assertTrue(value(consumerMeters, FerryMeterNames.BYTES, "side", "client", "direction", "out") > sent);
        assertTrue(value(providerMeters, FerryMeterNames.BYTES, "side", "server", "direction", "out") >= 100_000);
        assertTrue(value(providerMeters, FerryMeterNames.BYTES, "side", "server", "direction", "in") >= sent);
    }

    @Test
    void aRequestWhoseDeadlinePassedInTheQueueIsDroppedAndCounted() throws Exception {
        UserService users = users(1, 1, Duration.ofSeconds(20));
        UserService impatient = consumer.reference(ReferenceConfig.builder(UserService.class)
                .url("dubbo://127.0.0.1:" + provider.port()).timeout(Duration.ofMillis(300)).retries(0).build());
        CompletableFuture<String> held = RpcContext.async(() -> users.block("held"));
        assertTrue(impl.blockedEntered.await(10, TimeUnit.SECONDS));

        RpcException timedOut = assertThrows(RpcException.class, () -> impatient.hello("queued"));
        assertEquals(RpcStatus.TIMEOUT, timedOut.status());
        assertEquals(1, value(providerMeters, FerryMeterNames.POOL_QUEUED, "pool", "shared"));
        // it reached the provider about when its caller gave up: twice its timeout later it has surely expired there
        long gaveUp = Ticker.system().nanoTime();
        await().until(() -> Ticker.system().nanoTime() - gaveUp > TimeUnit.MILLISECONDS.toNanos(600));
        impl.release.countDown();

        assertEquals("released held", held.get(10, TimeUnit.SECONDS));
        await().until(() -> value(providerMeters, FerryMeterNames.DEADLINE_DROPS, "rpc.service", SERVICE) == 1);
    }

    @Test
    void closingAFerryRemovesItsMetersAndARestartShowsFreshValues() {
        UserService users = users(4, 0, Duration.ofSeconds(5));
        users.hello("before");
        assertTrue(ferryMeters(consumerMeters).contains(FerryMeterNames.BYTES));
        assertTrue(ferryMeters(providerMeters).contains(FerryMeterNames.POOL_ACTIVE));

        consumer.close();
        provider.close();
        assertEquals(List.of(), ferryMeters(consumerMeters));
        assertEquals(List.of(), ferryMeters(providerMeters));

        try (Ferry again = Ferry.builder().shutdownHook(false).sources(Sources.none())
                .observability(Observability.meters(consumerMeters)).build()) {
            Ferry restarted = ferries.track(Ferry.builder().shutdownHook(false).sources(Sources.none())
                    .protocol(ProtocolConfig.builder().host("127.0.0.1").port(0).build()).build());
            int port = restarted.export(ServiceConfig.builder(UserService.class, impl).build());
            again.reference(ReferenceConfig.builder(UserService.class).url("dubbo://127.0.0.1:" + port).build())
                    .hello("after");
            double received = value(consumerMeters, FerryMeterNames.BYTES, "side", "client", "direction", "in");
            assertTrue(received > 0 && received < 1000, "this Ferry's bytes only: " + received);
        }
        assertEquals(List.of(), ferryMeters(consumerMeters));
    }
}
