package io.ferry.rpc.config;

import io.ferry.rpc.GenericService;
import io.ferry.rpc.RpcException;
import io.ferry.rpc.RpcStatus;
import io.ferry.rpc.config.fixtures.DemoService;
import io.ferry.rpc.config.fixtures.DemoServiceImpl;
import io.ferry.rpc.config.fixtures.FerryFixture;
import io.ferry.rpc.config.fixtures.UserNotFoundException;
import io.ferry.rpc.config.fixtures.UserService;
import io.ferry.rpc.config.fixtures.UserServiceImpl;
import io.ferry.rpc.config.internal.files.Sources;
import io.ferry.rpc.config.observation.RpcObservations;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.Set;
import java.util.stream.Collectors;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Calls timed in a meter registry, consumer and provider side, under OpenTelemetry's RPC names with tags of bounded
 * cardinality only: service, method, status (and Micrometer's error), never arguments or addresses.
 */
class CallMetricsTest {
    @RegisterExtension
    final FerryFixture ferries = new FerryFixture();

    private final SimpleMeterRegistry consumerMeters = new SimpleMeterRegistry();
    private final SimpleMeterRegistry providerMeters = new SimpleMeterRegistry();
    private final UserServiceImpl impl = new UserServiceImpl();

    private UserService users(Duration timeout) {
        Ferry provider = ferries.track(Ferry.builder().shutdownHook(false).sources(Sources.none())
                .protocol(ProtocolConfig.builder().host("127.0.0.1").port(0).build())
                .observability(Observability.meters(providerMeters)).build());
        int port = provider.export(ServiceConfig.builder(UserService.class, impl).build());
        Ferry consumer = ferries.track(Ferry.builder().shutdownHook(false).sources(Sources.none())
                .observability(Observability.meters(consumerMeters)).build());
        return consumer.reference(ReferenceConfig.builder(UserService.class).url("dubbo://127.0.0.1:" + port)
                .timeout(timeout).retries(0).build());
    }

    private static Timer timer(SimpleMeterRegistry meters, String name, String method, String status) {
        return meters.get(name).tags(RpcObservations.SYSTEM, RpcObservations.SYSTEM_DUBBO,
                RpcObservations.SERVICE, UserService.class.getName(), RpcObservations.METHOD, method,
                RpcObservations.STATUS, status).timer();
    }

    @Test
    void eachCallIsTimedOnBothSidesByServiceMethodAndStatus() throws Exception {
        UserService users = users(Duration.ofSeconds(5));
        users.hello("a");
        users.hello("b");
        assertThrows(UserNotFoundException.class, () -> users.getUser(-1));

        assertEquals(2, timer(consumerMeters, RpcObservations.CLIENT, "hello", "OK").count());
        Timer failed = timer(consumerMeters, RpcObservations.CLIENT, "getUser", RpcObservations.EXCEPTION);
        assertEquals(1, failed.count());
        assertEquals("UserNotFoundException", failed.getId().getTag("error"));
        // the provider stops its timer as the answer leaves: by the time the caller has it, it has surely counted
        await().until(() -> providerMeters.find(RpcObservations.SERVER).tag(RpcObservations.STATUS, "OK")
                .timer() != null && timer(providerMeters, RpcObservations.SERVER, "hello", "OK").count() == 2);
        assertEquals(1, timer(providerMeters, RpcObservations.SERVER, "getUser", RpcObservations.EXCEPTION).count());
        assertTrue(timer(consumerMeters, RpcObservations.CLIENT, "hello", "OK").totalTime(
                java.util.concurrent.TimeUnit.NANOSECONDS) > 0);
    }

    @Test
    void genericCallsAreTaggedWithTheServiceEachCalls() {
        Ferry provider = ferries.track(Ferry.builder().shutdownHook(false).sources(Sources.none())
                .protocol(ProtocolConfig.builder().host("127.0.0.1").port(0).build()).build());
        int port = provider.export(ServiceConfig.builder(UserService.class, impl).build());
        provider.export(ServiceConfig.builder(DemoService.class, new DemoServiceImpl()).build());
        Ferry consumer = ferries.track(Ferry.builder().shutdownHook(false).sources(Sources.none())
                .observability(Observability.meters(consumerMeters)).build());
        String url = "dubbo://127.0.0.1:" + port;
        GenericService users = consumer.reference(ReferenceConfig.generic(UserService.class.getName()).url(url)
                .build());
        GenericService demo = consumer.reference(ReferenceConfig.generic(DemoService.class.getName()).url(url)
                .build());

        users.$invoke("hello", new String[] {"java.lang.String"}, new Object[] {"a"});
        demo.$invoke("sayHello", new String[] {"java.lang.String"}, new Object[] {"b"});
        demo.$invoke("sayHello", new String[] {"java.lang.String"}, new Object[] {"c"});

        // one method, $invoke, for both services: each call is counted under the service it called
        assertEquals(1, consumerMeters.get(RpcObservations.CLIENT)
                .tags(RpcObservations.SERVICE, UserService.class.getName()).timer().count());
        assertEquals(2, consumerMeters.get(RpcObservations.CLIENT)
                .tags(RpcObservations.SERVICE, DemoService.class.getName()).timer().count());
    }

    @Test
    void aFrameworkFailureIsTaggedWithItsStatus() {
        UserService users = users(Duration.ofMillis(200));
        RpcException timeout = assertThrows(RpcException.class, () -> users.block("slow"));
        assertEquals(RpcStatus.TIMEOUT, timeout.status());
        impl.release.countDown();

        Timer timedOut = timer(consumerMeters, RpcObservations.CLIENT, "block", "TIMEOUT");
        assertEquals(1, timedOut.count());
        assertEquals("RpcException", timedOut.getId().getTag("error"));
    }

    @Test
    void noTagCarriesAnArgumentOrAnAddress() throws Exception {
        UserService users = users(Duration.ofSeconds(5));
        for (int i = 0; i < 20; i++) {
            users.hello("caller-" + i);
            users.describe("value-" + i);
        }
        await().until(() -> providerMeters.find(RpcObservations.SERVER).tag(RpcObservations.METHOD, "describe")
                .timer() != null);
        for (SimpleMeterRegistry meters : new SimpleMeterRegistry[] {consumerMeters, providerMeters}) {
            // the calls' timers; Ferry's other meters have tags of their own (FerryMetersTest holds them to a set)
            Set<String> keys = meters.getMeters().stream().map(Meter::getId)
                    .filter(id -> id.getName().startsWith("rpc.")).flatMap(id -> id.getTags().stream())
                    .map(Tag::getKey).collect(Collectors.toSet());
            assertEquals(Set.of(RpcObservations.SYSTEM, RpcObservations.SERVICE, RpcObservations.METHOD,
                    RpcObservations.STATUS, "error"), keys);
            String values = meters.getMeters().stream().map(Meter::getId).flatMap(id -> id.getTags().stream())
                    .map(Tag::getValue).collect(Collectors.joining(" "));
            assertTrue(!values.contains("caller-") && !values.contains("value-") && !values.contains("127.0.0.1"),
                    values);
        }
    }
}
