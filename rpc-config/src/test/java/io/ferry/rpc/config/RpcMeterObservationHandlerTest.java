package io.ferry.rpc.config;

import io.ferry.rpc.RpcException;
import io.ferry.rpc.config.fixtures.FerryFixture;
import io.ferry.rpc.config.fixtures.UserNotFoundException;
import io.ferry.rpc.config.fixtures.UserService;
import io.ferry.rpc.config.fixtures.UserServiceImpl;
import io.ferry.rpc.config.internal.files.Sources;
import io.ferry.rpc.config.observation.RpcMeterObservationHandler;
import io.ferry.rpc.config.observation.RpcObservations;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.observation.DefaultMeterObservationHandler;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationHandler.FirstMatchingCompositeObservationHandler;
import io.micrometer.observation.ObservationRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * Ferry's meter handler, ahead of Micrometer's default one as Spring Boot groups them: the same calls make the same
 * timers (names, tags, counts) as the default handler alone makes of them, less its {@code .active} long-task
 * timers; every other observation still reaches the default handler.
 */
class RpcMeterObservationHandlerTest {
    @RegisterExtension
    final FerryFixture ferries = new FerryFixture();

    /** Calls that end every way a timer tells apart: returned, the service's own exception, a timeout. */
    private void callEveryWay(MeterRegistry meters, Function<MeterRegistry, ObservationRegistry> observations) {
        UserServiceImpl impl = new UserServiceImpl();
        Ferry provider = ferries.track(Ferry.builder().shutdownHook(false).sources(Sources.none())
                .protocol(ProtocolConfig.builder().host("127.0.0.1").port(0).build())
                .observability(Observability.observations(observations.apply(meters))).build());
        int port = provider.export(ServiceConfig.builder(UserService.class, impl).build());
        Ferry consumer = ferries.track(Ferry.builder().shutdownHook(false).sources(Sources.none())
                .observability(Observability.observations(observations.apply(meters))).build());
        UserService users = consumer.reference(ReferenceConfig.builder(UserService.class)
                .url("dubbo://127.0.0.1:" + port).timeout(Duration.ofMillis(300)).retries(0).build());
        users.hello("a");
        users.hello("b");
        assertThrows(UserNotFoundException.class, () -> users.getUser(-1));
        assertThrows(RpcException.class, () -> users.block("slow"));
        impl.release.countDown();
        // the provider stops its timers as the answers leave, the blocked one last
        await().until(() -> meters.find(RpcObservations.SERVER).tag(RpcObservations.METHOD, "block").timer() != null);
    }

    private static ObservationRegistry withDefaultHandler(MeterRegistry meters) {
        ObservationRegistry registry = ObservationRegistry.create();
        registry.observationConfig().observationHandler(new DefaultMeterObservationHandler(meters));
        return registry;
    }

    private static ObservationRegistry withFerrysHandlerFirst(MeterRegistry meters) {
        ObservationRegistry registry = ObservationRegistry.create();
        registry.observationConfig().observationHandler(new FirstMatchingCompositeObservationHandler(
                new RpcMeterObservationHandler(meters), new DefaultMeterObservationHandler(meters)));
        return registry;
    }

    /** Each timer by its id (name and tags), with its count. */
    private static Map<String, Long> timers(MeterRegistry meters) {
        Map<String, Long> timers = new TreeMap<>();
        for (Meter meter : meters.getMeters()) {
            if (meter instanceof Timer timer && meter.getId().getName().startsWith("rpc.")) {
                timers.put(meter.getId().getName() + meter.getId().getTags(), timer.count());
            }
        }
        return timers;
    }

    @Test
    void theCallsMakeTheTimersTheDefaultHandlerMakesWithoutItsActiveOnes() {
        SimpleMeterRegistry byDefault = new SimpleMeterRegistry();
        callEveryWay(byDefault, RpcMeterObservationHandlerTest::withDefaultHandler);
        SimpleMeterRegistry byFerry = new SimpleMeterRegistry();
        callEveryWay(byFerry, RpcMeterObservationHandlerTest::withFerrysHandlerFirst);

        // hello OK, getUser EXCEPTION, block TIMEOUT on the client, block OK on the provider (it ran to the end)
        assertEquals(6, timers(byDefault).size(), timers(byDefault).toString());
        assertEquals(timers(byDefault), timers(byFerry));
        assertNotNull(byDefault.find(RpcObservations.CLIENT + ".active").longTaskTimer());
        assertNull(byFerry.find(RpcObservations.CLIENT + ".active").longTaskTimer());
        // the default handler's timers have no description; Ferry's say what they time
        assertNull(byDefault.get(RpcObservations.CLIENT).tag(RpcObservations.METHOD, "block").timer().getId()
                .getDescription());
        assertNotNull(byFerry.get(RpcObservations.CLIENT).tag(RpcObservations.METHOD, "block").timer().getId()
                .getDescription());
    }

    @Test
    void everyOtherObservationGoesOnToTheDefaultHandler() {
        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        ObservationRegistry registry = withFerrysHandlerFirst(meters);

        Observation.createNotStarted("orders.checkout", registry).observe(() -> { });

        assertEquals(1, meters.get("orders.checkout").timer().count());
        assertNotNull(meters.find("orders.checkout.active").longTaskTimer());
    }
}
