package io.ferry.rpc.config;


import io.ferry.rpc.RpcException;
import io.ferry.rpc.RpcReference;
import io.ferry.rpc.RpcStatus;
import io.ferry.rpc.config.fixtures.FerryFixture;
import io.ferry.rpc.config.mock.Greeting;
import io.ferry.rpc.config.mock.GreetingImpl;
import io.ferry.rpc.config.mock.GreetingMock;
import io.ferry.rpc.config.mock.GreetingRefused;
import io.ferry.rpc.config.mock.GreetingStub;
import io.ferry.rpc.config.internal.files.Sources;
import io.ferry.rpc.config.observation.RpcObservations;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Dubbo's {@code mock} and {@code stub} over real sockets: the mock answers calls that failed with a framework error
 * (a refused connection, a timeout) and never a business exception, unless forced; it answers within the call's one
 * deadline, for synchronous, asynchronous and one-way calls; and a stub wraps the reference.
 */
class MockTest {
    @RegisterExtension
    final FerryFixture ferries = new FerryFixture();

    private final GreetingImpl impl = new GreetingImpl();
    private String url;
    private String refused;
    private Ferry consumer;

    @BeforeEach
    void start() throws Exception {
        Ferry provider = ferries.track(Ferry.builder().shutdownHook(false).sources(Sources.none())
                .protocol(ProtocolConfig.builder().host("127.0.0.1").port(0).build()).build());
        url = "dubbo://127.0.0.1:" + provider.export(ServiceConfig.builder(Greeting.class, impl).build());
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            refused = "dubbo://127.0.0.1:" + s.getLocalPort(); // closed at once: connects are refused
        }
        consumer = ferries.track(Ferry.builder().shutdownHook(false).sources(Sources.none()).build());
        GreetingMock.NOTES.clear();
    }

    @AfterEach
    void release() {
        impl.release.countDown();
    }

    private Greeting reference(String to, String mock, Duration timeout) {
        return consumer.reference(ReferenceConfig.builder(Greeting.class).url(to).mock(mock).timeout(timeout)
                .check(false).build());
    }

    /**
     * A reference answering failed calls with {@code mock="return <text>"}; count() and names(), whose types cannot
     * take a text, with mocks of their own.
     */
    private Greeting returning(String to, String text, Duration timeout) {
        return consumer.reference(ReferenceConfig.builder(Greeting.class).url(to).mock("return " + text)
                .method(MethodConfig.builder("count").mock("return -2").build())
                .method(MethodConfig.builder("names").mock("return empty").build()).timeout(timeout)
                .check(false).build());
    }

    @Test
    void aMockAnswersAFailedConnectionButNotTheServicesOwnException() throws Exception {
        Greeting working = returning(url, "fallback", Duration.ofSeconds(5));
        assertEquals("hello ann", working.greet("ann"), "a call that works is the provider's");
        GreetingRefused own = assertThrows(GreetingRefused.class, () -> working.refuse("no"));
        assertEquals("no", own.getMessage(), "the service's exception, not the mock's answer");
        ExecutionException later = assertThrows(ExecutionException.class,
                () -> working.refuseLater("late").get(5, TimeUnit.SECONDS));
        assertInstanceOf(IllegalArgumentException.class, later.getCause(), "the service's own, not mocked");
        assertTrue(later.getCause().getMessage().contains("late"), later.getCause().toString());

        Greeting unreachable = returning(refused, "fallback", Duration.ofSeconds(5));
        assertEquals("fallback", unreachable.greet("ann"), "a refused connection: NETWORK, mocked");
        assertEquals("fallback", unreachable.greetLater("ann").get(5, TimeUnit.SECONDS), "async alike");
        assertEquals("fallback", unreachable.refuse("no"), "the provider was never reached: mocked");
        unreachable.note("one-way"); // without the mock, it throws NETWORK at once (see below)
    }

    @Test
    void withoutAMockTheSameCallsFail() {
        Greeting unreachable = reference(refused, "false", Duration.ofSeconds(5));
        assertEquals(RpcStatus.NETWORK, assertThrows(RpcException.class, () -> unreachable.greet("ann")).status());
        assertEquals(RpcStatus.NETWORK, assertThrows(RpcException.class, () -> unreachable.note("n")).status(),
                "a one-way call that cannot be sent throws at once");
    }

    @Test
    void aTimeoutIsAnsweredByTheMockAtTheCallsDeadlineNotLater() throws Exception {
        Duration timeout = Duration.ofMillis(500);
        Greeting slow = returning(url, "fallback", timeout);
        long start = System.nanoTime();
        assertEquals("fallback", slow.hang("sync"));
        long took = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        assertTrue(took >= timeout.toMillis() - 20, "answered after " + took + " ms: before the timeout");
        // one deadline: the mock adds no wait of its own (the bound is the timeout of another full try)
        assertTrue(took < 2 * timeout.toMillis(), "answered after " + took + " ms: a second timeout's worth");
        start = System.nanoTime();
        assertEquals("fallback", slow.hangLater("async").get(5, TimeUnit.SECONDS), "an async call's timeout alike");
        took = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        assertTrue(took >= timeout.toMillis() - 20 && took < 2 * timeout.toMillis(), "answered after " + took + " ms");
    }

    @Test
    void aForcedMockNeverCallsTheProvider() throws Exception {
        Greeting forced = consumer.reference(ReferenceConfig.builder(Greeting.class).url(url)
                .mock("force:return forced").method(MethodConfig.builder("count").mock("force:return 42").build())
                .method(MethodConfig.builder("names").mock("force:return [\"a\",\"b\"]").build()).build());
        assertEquals("forced", forced.greet("ann"));
        assertEquals(42, forced.count());
        assertEquals(List.of("a", "b"), forced.names());
        assertEquals("forced", forced.greetLater("ann").get(5, TimeUnit.SECONDS));
        assertEquals("forced", forced.refuse("no"), "forced: even a call that would throw the service's own");
        forced.note("n");
        assertEquals(0, impl.calls.get(), "no call reached the provider");
    }

    @Test
    void aReferenceWhoseEveryMethodIsForcedNeedsNoProviderToStart() {
        // check is on: a reference that may call a provider waits for one and fails
        Ferry checking = ferries.track(Ferry.builder().shutdownHook(false).sources(Sources.none())
                .consumer(ConsumerConfig.builder().connectTimeout(Duration.ofMillis(300)).build()).build());
        Greeting forced = checking.reference(ReferenceConfig.builder(Greeting.class).url(refused).mock("force")
                .build());
        assertEquals("mock ann", forced.greet("ann"));
        RpcException notForced = assertThrows(RpcException.class, () -> checking.reference(ReferenceConfig
                .builder(Greeting.class).url(refused).mock("force")
                .method(MethodConfig.builder("greet").mock("true").build()).build()));
        assertEquals(RpcStatus.NO_PROVIDER, notForced.status());
    }

    @Test
    void aSystemPropertyForcesTheMockOfAReferenceBuiltInCode() {
        Ferry degraded = ferries.track(Ferry.builder().shutdownHook(false)
                .sources(Sources.of(Map.of("ferry.reference.greeting.mock", "force:throw"), null)).build());
        Greeting greeting = degraded.reference(ReferenceConfig.builder(Greeting.class).id("greeting").url(url)
                .build());
        RpcException e = assertThrows(RpcException.class, () -> greeting.greet("ann"));
        assertEquals(RpcStatus.ILLEGAL_STATE, e.status());
        assertEquals(0, impl.calls.get());
    }

    @Test
    void throwFailsWithTheRealStatusOrTheNamedException() {
        Greeting plain = reference(refused, "throw", Duration.ofSeconds(5));
        RpcException degraded = assertThrows(RpcException.class, () -> plain.greet("ann"));
        assertEquals(RpcStatus.NETWORK, degraded.status(), "the real failure's status");
        assertTrue(degraded.isNotExecuted());
        assertTrue(degraded.getMessage().startsWith("mocked exception for service degradation."),
                degraded.getMessage());

        Greeting named = reference(refused, "fail:throw java.lang.IllegalStateException", Duration.ofSeconds(5));
        IllegalStateException thrown = assertThrows(IllegalStateException.class, () -> named.greet("ann"));
        assertEquals("mocked exception for service degradation.", thrown.getMessage());
        assertEquals(RpcStatus.NETWORK, assertInstanceOf(RpcException.class, thrown.getCause()).status(),
                "the real failure is its cause");

        Greeting forced = reference(url, "force:throw", Duration.ofSeconds(5));
        RpcException refusedHere = assertThrows(RpcException.class, () -> forced.greet("ann"));
        assertEquals(RpcStatus.ILLEGAL_STATE, refusedHere.status());
        assertTrue(refusedHere.isNotExecuted());
        assertEquals(0, impl.calls.get());
    }

    @Test
    void aMockClassAnswersSyncAsyncAndOneWayCalls() throws Exception {
        Greeting mocked = reference(refused, "true", Duration.ofSeconds(5));
        assertEquals("mock ann", mocked.greet("ann"));
        assertEquals(-1, mocked.count());
        assertEquals("mock later ann", mocked.greetLater("ann").get(5, TimeUnit.SECONDS));
        mocked.note("one-way");
        assertEquals("one-way", GreetingMock.NOTES.poll(5, TimeUnit.SECONDS), "the one-way call reached the mock");

        Greeting byName = reference(refused, GreetingMock.class.getName(), Duration.ofSeconds(5));
        assertEquals("mock bob", byName.greet("bob"));
    }

    @Test
    void aMockFutureStillRunningAtTheDeadlineEndsTheCallWithTimeout() {
        Duration timeout = Duration.ofMillis(300);
        Greeting forced = reference(url, "force", timeout); // force alone: the interface's XxxMock class
        long start = System.nanoTime();
        ExecutionException e = assertThrows(ExecutionException.class,
                () -> forced.greetLater("never").get(10, TimeUnit.SECONDS));
        long took = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        RpcException timedOut = assertInstanceOf(RpcException.class, e.getCause());
        assertEquals(RpcStatus.TIMEOUT, timedOut.status());
        assertTrue(took >= timeout.toMillis() - 20 && took < 5 * timeout.toMillis(), "ended after " + took + " ms");
        assertEquals(0, impl.calls.get());
    }

    @Test
    void metricsSeeTheRealFailureWhileTheCallerGetsTheMock() {
        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        Ferry observed = ferries.track(Ferry.builder().shutdownHook(false).sources(Sources.none())
                .observability(Observability.meters(meters)).build());
        Greeting unreachable = observed.reference(ReferenceConfig.builder(Greeting.class).url(refused)
                .method(MethodConfig.builder("greet").mock("return fallback").build()).check(false).build());
        assertEquals("fallback", unreachable.greet("ann"));
        assertEquals(1, meters.get(RpcObservations.CLIENT).tag(RpcObservations.METHOD, "greet")
                .tag(RpcObservations.STATUS, "NETWORK").timer().count(), "timed as it failed");
        assertTrue(meters.find(RpcObservations.CLIENT).tag(RpcObservations.STATUS, "OK").timers().isEmpty());
    }

    @Test
    void aStubWrapsTheReferenceAndItsMock() {
        Greeting stubbed = consumer.reference(ReferenceConfig.builder(Greeting.class).url(refused).stub("true")
                .method(MethodConfig.builder("greet").mock("return fallback").build()).check(false).build());
        assertInstanceOf(GreetingStub.class, stubbed);
        assertEquals("stub(fallback)", stubbed.greet("ann"));
        Greeting working = consumer.reference(ReferenceConfig.builder(Greeting.class).url(url)
                .stub(GreetingStub.class.getName()).build());
        assertEquals("stub(hello bob)", working.greet("bob"));
    }

    @Test
    void xmlReferencesTakeMockAndStubAsDubboWritesThem() throws Exception {
        Path xml = ferries.file("consumer.xml",
                "<ferry:config xmlns:ferry=\"http://ferry.io/schema/ferry\">",
                "  <ferry:application name=\"mock-consumer\"/>",
                "  <ferry:consumer mock=\"return fallback\"/>",
                "  <ferry:reference id=\"greeting\" interface=\"" + Greeting.class.getName() + "\" url=\"" + refused
                        + "\" check=\"false\" stub=\"true\">",
                "    <ferry:method name=\"count\" mock=\"return 7\"/>",
                "    <ferry:method name=\"names\" mock=\"return ['x', 'y']\"/>",
                "  </ferry:reference>",
                "  <ferry:reference id=\"forced\" interface=\"" + Greeting.class.getName() + "\" url=\"" + url
                        + "\" mock=\"force:return `forced`\">",
                "    <ferry:method name=\"count\" mock=\"force:return 1\"/>",
                "    <ferry:method name=\"names\" mock=\"force:return empty\"/>",
                "  </ferry:reference>",
                "</ferry:config>");
        Ferry fromXml = ferries.track(Ferry.fromXml(xml));
        Greeting greeting = fromXml.reference("greeting", Greeting.class);
        assertInstanceOf(GreetingStub.class, greeting);
        assertEquals("stub(fallback)", greeting.greet("ann"), "the consumer's mock, through the stub");
        assertEquals(7, greeting.count(), "the method's mock wins");
        assertEquals(List.of("x", "y"), greeting.names());
        assertEquals("forced", fromXml.reference("forced", Greeting.class).greet("ann"));
        assertEquals(0, impl.calls.get());
    }

    @Test
    void propertiesTakeThemAlike() throws Exception {
        Path properties = ferries.file("consumer.properties",
                "ferry.application.name = mock-consumer",
                "ferry.reference.greeting.interface = " + Greeting.class.getName(),
                "ferry.reference.greeting.url = " + refused,
                "ferry.reference.greeting.check = false",
                "ferry.reference.greeting.mock = return fallback",
                "ferry.reference.greeting.method.count.mock = return empty",
                "ferry.reference.greeting.method.names.mock = return ['p']");
        Ferry fromProperties = ferries.track(Ferry.fromProperties(properties));
        Greeting greeting = fromProperties.reference("greeting", Greeting.class);
        assertEquals("fallback", greeting.greet("ann"));
        assertEquals(0, greeting.count());
        assertEquals(List.of("p"), greeting.names());
    }

    /** A class whose field Ferry injects. */
    static final class Client {
        @RpcReference(mock = "force", stub = "true")
        Greeting greeting;
    }

    @Test
    void rpcReferenceTakesThemToo() {
        Client client = new Client();
        consumer.inject(client, url);
        assertEquals("stub(mock ann)", client.greeting.greet("ann"), "the forced XxxMock, through the XxxStub");
        assertEquals(0, impl.calls.get());
    }
}
