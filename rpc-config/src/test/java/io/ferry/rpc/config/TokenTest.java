package io.ferry.rpc.config;

import io.ferry.rpc.Filter;
import io.ferry.rpc.RpcExport;
import io.ferry.rpc.RpcException;
import io.ferry.rpc.RpcStatus;
import io.ferry.rpc.config.fixtures.UserService;
import io.ferry.rpc.config.fixtures.UserServiceImpl;
import io.ferry.rpc.config.fixtures.ZooKeeperFixture;
import io.ferry.rpc.config.fixtures.extensions.Recorded;
import io.ferry.rpc.config.internal.files.Sources;
import io.ferry.rpc.config.option.Options;
import io.ferry.rpc.registry.ServiceUrl;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Dubbo's token between Ferry peers, through a real ZooKeeper in this process: the provider registers its token, a
 * consumer that found it there sends it back, and a call without it, or with another, is refused before anything
 * of the service runs: not the implementation, not a filter the service names or adds, not its executes limit.
 */
class TokenTest {
    @RegisterExtension
    final ZooKeeperFixture zk = new ZooKeeperFixture();

    /** Counts the calls that reached it. */
    static final class CountingUsers extends UserServiceImpl {
        final AtomicInteger hellos = new AtomicInteger();

        @Override
        public String hello(String name) {
            hellos.incrementAndGet();
            return super.hello(name);
        }
    }

    /** Asks for a token by its annotation, as Dubbo's {@code @DubboService(token = "true")}. */
    @RpcExport(value = UserService.class, token = "true")
    static final class AnnotatedUsers extends UserServiceImpl {
    }

    private final CountingUsers impl = new CountingUsers();
    private final AtomicInteger filtered = new AtomicInteger();
    private int port;

    @BeforeEach
    void clearTheRecordedEvents() {
        Recorded.EVENTS.clear();
    }

    /** A provider of {@link #impl} with {@code token}, a named filter, a filter object and an executes limit. */
    private void provider(String token) {
        Ferry provider = zk.track(Ferry.builder().shutdownHook(false).sources(Sources.none())
                .application(ApplicationConfig.of("token-provider"))
                .protocol(ProtocolConfig.builder().host("127.0.0.1").port(0).build())
                .registry(zk.registry("provider.cache")).build());
        Filter counting = (invocation, next) -> {
            filtered.incrementAndGet();
            return next.invoke(invocation);
        };
        port = provider.export(ServiceConfig.builder(UserService.class, impl).token(token).filter("audit")
                .filter(counting).executes(5).build());
    }

    private Ferry consumer() {
        return zk.track(Ferry.builder().shutdownHook(false).sources(Sources.none())
                .application(ApplicationConfig.of("token-consumer")).registry(zk.registry("consumer.cache")).build());
    }

    private UserService direct(String url) {
        return consumer().reference(ReferenceConfig.builder(UserService.class).url(url).retries(2)
                .timeout(Duration.ofSeconds(5)).build());
    }

    /** The provider URL registered for UserService, read straight from ZooKeeper. */
    private ServiceUrl registered() throws Exception {
        List<ServiceUrl> urls = zk.registeredProviders(UserService.class);
        assertEquals(1, urls.size(), urls.toString());
        return urls.get(0);
    }

    private void assertNothingOfTheServiceRan() {
        assertEquals(0, impl.hellos.get(), "the implementation");
        assertEquals(0, filtered.get(), "the service's filter object");
        assertEquals(List.of(), Recorded.EVENTS, "the filter its list names");
    }

    @Test
    void aConsumerThatFoundTheProviderInTheRegistrySendsItsRandomToken() throws Exception {
        provider("true");
        String token = registered().parameter("token");
        assertTrue(token.matches("[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}"), token);

        UserService users = consumer().reference(ReferenceConfig.builder(UserService.class)
                .timeout(Duration.ofSeconds(5)).build());
        assertEquals("hello zk", users.hello("zk"));
        assertEquals(1, impl.hellos.get());
        assertEquals(List.of("provider audit UserService.hello"), Recorded.EVENTS);

        assertEquals("hello direct", direct("dubbo://127.0.0.1:" + port + "?token=" + token).hello("direct"),
                "a direct url may carry the token, as a Dubbo consumer's does");
    }

    @Test
    void aWrongTokenIsRefusedAndNothingOfTheServiceRuns() throws Exception {
        provider("true");
        String token = registered().parameter("token");
        UserService users = direct("dubbo://127.0.0.1:" + port + "?token=guess");
        RpcException e = assertThrows(RpcException.class, () -> users.hello("intruder"));
        assertEquals(RpcStatus.FORBIDDEN, e.status(), e.toString());
        assertTrue(e.isNotExecuted());
        assertTrue(e.getMessage().contains("answered status 70 to UserService.hello: Invalid token! Forbid invoke "
                + "remote service interface " + UserService.class.getName() + " method hello() from consumer "
                + "127.0.0.1 to provider 127.0.0.1, the consumer sent another token (not shown)"), e.getMessage());
        assertFalse(e.getMessage().contains("guess") || e.getMessage().contains(token), e.getMessage());
        assertNothingOfTheServiceRan();
        assertEquals("hello still", direct("dubbo://127.0.0.1:" + port + "?token=" + token).hello("still"),
                "a refusal fails its call only: the connection and the provider serve on");
    }

    @Test
    void aCallWithoutTheTokenIsRefusedAndNothingOfTheServiceRuns() {
        provider("a-fixed-token");
        UserService users = direct("dubbo://127.0.0.1:" + port);
        RpcException e = assertThrows(RpcException.class, () -> users.hello("anonymous"));
        assertEquals(RpcStatus.FORBIDDEN, e.status(), e.toString());
        assertTrue(e.getMessage().endsWith("the consumer sent no token"), e.getMessage());
        assertNothingOfTheServiceRan();
    }

    @Test
    void aServiceWithoutATokenTakesCallsWithoutOne() throws Exception {
        provider("false");
        assertFalse(registered().parameters().containsKey("token"));
        assertEquals("hello open", direct("dubbo://127.0.0.1:" + port).hello("open"));
    }

    @Test
    void theProviderDefaultAppliesToEveryServiceThatSetsNone() {
        Sources system = Sources.of(Map.of("ferry.provider.token", "true"), null);
        try (Ferry ferry = Ferry.builder().shutdownHook(false).sources(system).build()) {
            assertEquals("true", ferry.settingsOf(ServiceConfig.builder(UserService.class, impl).build())
                    .get(Options.TOKEN));
            assertEquals("false", ferry.settingsOf(ServiceConfig.builder(UserService.class, impl).token("false")
                    .build()).get(Options.TOKEN), "a service's own word wins, as every option's does");
        }
        try (Ferry ferry = Ferry.builder().shutdownHook(false).sources(Sources.none()).build()) {
            assertEquals("true", ferry.settingsOf(ServiceConfig.builder(UserService.class, new AnnotatedUsers())
                    .build()).get(Options.TOKEN), "@RpcExport(token)");
        }
    }

    @Test
    void aFixedTokenIsNeverPrinted() {
        ServiceConfig<UserService> service = ServiceConfig.builder(UserService.class, impl).token("s3cr3t").build();
        ReferenceConfig<UserService> reference = ReferenceConfig.builder(UserService.class)
                .url("dubbo://127.0.0.1:20880?token=s3cr3t&x=1").build();
        try (Ferry ferry = Ferry.builder().shutdownHook(false).sources(Sources.none()).build()) {
            for (String printed : List.of(service.toString(), ferry.settingsOf(service).toString(),
                    reference.toString(), ferry.settingsOf(reference).toString())) {
                assertFalse(printed.contains("s3cr3t"), printed);
            }
            assertTrue(ferry.settingsOf(service).toString().contains("token"));
            assertTrue(reference.toString().contains("?token=******&x=1"), reference.toString());
        }
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> ReferenceConfig.builder(UserService.class).url("dubbo://127.0.0.1?token=s3cr3t"));
        assertFalse(e.getMessage().contains("s3cr3t"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class,
                () -> ServiceConfig.builder(UserService.class, impl).token("s3cr3t&x=1").build());
        assertEquals("token: (not shown) (expected: no whitespace, '&', '=', '?' or '#': it is written into the "
                + "registry URL)", e.getMessage());
    }
}
