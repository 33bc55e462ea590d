package io.ferry.rpc.config;

import io.ferry.rpc.EchoService;
import io.ferry.rpc.RpcContext;
import io.ferry.rpc.RpcException;
import io.ferry.rpc.RpcStatus;
import io.ferry.rpc.config.fixtures.User;
import io.ferry.rpc.remoting.ConnectionInfo;
import io.ferry.rpc.remoting.Dispatcher;
import io.ferry.rpc.config.fixtures.UserNotFoundException;
import io.ferry.rpc.config.fixtures.UserService;
import io.ferry.rpc.config.fixtures.UserServiceImpl;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A Ferry consumer calling a Ferry provider over real sockets on 127.0.0.1. */
class EndToEndTest {
    private final UserServiceImpl impl = new UserServiceImpl();
    private Ferry provider;
    private Ferry consumer;
    private String url;

    @BeforeEach
    void start() {
        provider = Ferry.builder().application(ApplicationConfig.of("e2e-provider"))
                .protocol(ProtocolConfig.builder().host("127.0.0.1").port(0).threads(8).build()).build();
        int port = provider.export(ServiceConfig.builder(UserService.class, impl).build());
        url = "dubbo://127.0.0.1:" + port;
        consumer = Ferry.builder().application(ApplicationConfig.of("e2e-consumer")).build();
    }

    @AfterEach
    void stop() {
        impl.release.countDown();
        consumer.close();
        provider.close();
    }

    private UserService reference() {
        return consumer.reference(ReferenceConfig.builder(UserService.class).url(url).build());
    }

    @Test
    void synchronousCallsCarryPrimitivesStringsPojosListsAndNull() throws Exception {
        UserService users = reference();
        assertEquals("hello ann", users.hello("ann"));
        assertEquals(5, users.add(2, 3));
        assertEquals(-8_000_000_000L, users.twice(-4_000_000_000L));
        assertTrue(users.isEven(4));
        assertEquals(UserServiceImpl.user(7), users.getUser(7));
        List<User> list = users.listUsers(15);
        assertEquals(15, list.size());
        assertEquals(UserServiceImpl.user(14), list.get(14));
        assertNull(users.nothing());
        assertNull(users.hello(null).equals("hello null") ? null : "unexpected");
    }

    @Test
    void bothSidesShowTheirConnectionLiveFromTheBootstrap() {
        assertTrue(consumer.consumerConnections().connections().isEmpty(), "no reference yet");
        UserService users = reference();
        assertEquals("hello ann", users.hello("ann"));

        ConnectionInfo mine = consumer.consumerConnections().connections().get(0);
        ConnectionInfo theirs = provider.providerConnections().connections().get(0);
        assertEquals(mine.local(), theirs.remote());
        assertEquals(mine.remote(), theirs.local());
        assertEquals(ConnectionInfo.State.READY, mine.state());
        assertNotNull(mine.lastHeartbeatRtt(), "the readiness ping's round trip");
        assertTrue(mine.ioThread().startsWith("ferry-client-io"), mine.ioThread());
        assertTrue(theirs.ioThread().startsWith("ferry-server-io"), theirs.ioThread());
        assertEquals(0, mine.pendingCalls());
        String table = consumer.consumerConnections().toString();
        assertTrue(table.contains(mine.remote()) && table.contains("READY"), table);
    }

    @Test
    void declaredBusinessExceptionArrivesAsItselfWithMessageFieldsAndStack() {
        UserService users = reference();
        UserNotFoundException e = assertThrows(UserNotFoundException.class, () -> users.getUser(-3));
        assertEquals("no user -3", e.getMessage());
        assertEquals(-3, e.getUserId());
        assertTrue(e.getStackTrace().length > 0);
        assertEquals(UserServiceImpl.class.getName(), e.getStackTrace()[0].getClassName());
    }

    @Test
    void undeclaredApplicationExceptionArrivesAsRuntimeExceptionNamingIt() {
        UserService users = reference();
        RuntimeException e = assertThrows(RuntimeException.class, () -> users.crash("boom"));
        assertEquals(RuntimeException.class, e.getClass());
        assertTrue(e.getMessage().contains(UserServiceImpl.InternalCrash.class.getName()), e.getMessage());
        assertTrue(e.getMessage().contains("boom"));
    }

    @Test
    void anAllowedExceptionWithAnUnknownCauseArrivesWithItsWholeChainReadable() {
        UserService users = reference();
        RuntimeException e = assertThrows(RuntimeException.class, () -> users.crashWithCause("deep"));
        assertTrue(e.getMessage().startsWith("java.lang.IllegalStateException: deep"), e.getMessage());
        assertTrue(e.getCause().getMessage().contains(UserServiceImpl.InternalCrash.class.getName()),
                e.getCause().getMessage());
        assertEquals("hello after", users.hello("after"), "the answer was delivered, not refused");
    }

    @Test
    void asyncMethodsAndAsyncCallsOfPlainMethodsCompleteOffTheCallersThread() throws Exception {
        UserService users = reference();
        assertEquals("async hello bo", users.helloAsync("bo").get(5, TimeUnit.SECONDS));
        CompletableFuture<String> plain = RpcContext.async(() -> users.hello("cy"));
        AtomicReference<String> thread = new AtomicReference<>();
        assertEquals("hello cy", plain.thenApply(v -> {
            thread.set(Thread.currentThread().getName());
            return v;
        }).get(5, TimeUnit.SECONDS));
        CompletableFuture<Integer> primitive = RpcContext.async(() -> users.add(20, 22));
        assertEquals(42, primitive.get(5, TimeUnit.SECONDS));
        assertFalse(thread.get().contains("io"), "callback ran on " + thread.get());
    }

    @Test
    void onewayCallsReachTheProviderWithoutAnAnswer() throws Exception {
        UserService users = reference();
        users.record("first");
        users.record("second");
        // each runs on a business thread of its own: they arrive, in either order
        java.util.Set<String> arrived = new java.util.HashSet<>();
        arrived.add(impl.recorded.poll(5, TimeUnit.SECONDS));
        arrived.add(impl.recorded.poll(5, TimeUnit.SECONDS));
        assertEquals(java.util.Set.of("first", "second"), arrived);
    }

    @Test
    void attachmentsTravelBothWays() {
        UserService users = reference();
        RpcContext.current().setAttachment("trace", "t-1");
        assertEquals("t-1", users.attachment("trace"));
        assertEquals("t-1", RpcContext.current().responseAttachments().get("echo-trace"));
        assertNull(users.attachment("trace"), "attachments apply to one call only");
    }

    @Test
    void echoAndLocalObjectMethods() {
        UserService users = reference();
        assertEquals("ping", ((EchoService) users).$echo("ping"));
        assertTrue(users.toString().contains(UserService.class.getName()));
        assertEquals(users, users);
        assertNotEquals(users, reference());
        assertEquals(System.identityHashCode(users), users.hashCode());
    }

    @Test
    void aCallNeverOutlivesItsTimeoutAndThePerCallOverrideWins() {
        UserService users = consumer.reference(ReferenceConfig.builder(UserService.class).url(url)
                .timeout(Duration.ofSeconds(20)).build());
        RpcContext.current().setTimeout(Duration.ofMillis(200));
        long start = System.nanoTime();
        RpcException e = assertThrows(RpcException.class, () -> users.block("t"));
        long elapsedMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        assertEquals(RpcStatus.TIMEOUT, e.status());
        // the bound is the reference's 20 s, which the call would have waited out had the override lost
        assertTrue(elapsedMs < 20_000, "took " + elapsedMs + " ms: the reference's 20 s timeout, not the call's");
        impl.release.countDown();
        assertEquals("hello again", users.hello("again"), "the connection still works after a timeout");
    }

    @Test
    void methodConfigTimeoutApplies() {
        UserService users = consumer.reference(ReferenceConfig.builder(UserService.class).url(url)
                .method(MethodConfig.timeout("block", Duration.ofMillis(150))).build());
        RpcException e = assertThrows(RpcException.class, () -> users.block("m"));
        assertEquals(RpcStatus.TIMEOUT, e.status());
    }

    @Test
    void fullThreadPoolAnswersThreadpoolExhaustedAtOnce() throws Exception {
        try (Ferry small = Ferry.builder().protocol(ProtocolConfig.builder().host("127.0.0.1").port(0).threads(1)
                .build()).build()) {
            UserServiceImpl blocking = new UserServiceImpl();
            int port = small.export(ServiceConfig.builder(UserService.class, blocking).build());
            UserService users = consumer.reference(ReferenceConfig.builder(UserService.class)
                    .url("dubbo://127.0.0.1:" + port).timeout(Duration.ofSeconds(20)).build());
            CompletableFuture<String> occupying = RpcContext.async(() -> users.block("hold"));
            assertTrue(blocking.blockedEntered.await(10, TimeUnit.SECONDS));
            long start = System.nanoTime();
            RpcException e = assertThrows(RpcException.class, () -> users.hello("late"));
            assertEquals(RpcStatus.THREADPOOL_EXHAUSTED, e.status());
            assertTrue(e.isNotExecuted());
            // at once: a call queued behind the held one would have run out its 20 s timeout instead
            assertTrue(TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start) < 20);
            blocking.release.countDown();
            assertEquals("released hold", occupying.get(10, TimeUnit.SECONDS));
        }
    }

    @Test
    void requestOverThePayloadLimitFailsAtOnceAndSendsNothing() {
        try (Ferry tight = Ferry.builder().consumer(ConsumerConfig.builder().payloadBytes(4096).build()).build()) {
            UserService users = tight.reference(ReferenceConfig.builder(UserService.class).url(url).build());
            RpcException e = assertThrows(RpcException.class, () -> users.hello("y".repeat(10_000)));
            assertEquals(RpcStatus.PAYLOAD_TOO_LARGE, e.status());
            assertTrue(e.isNotExecuted(), "not sent: safe to try elsewhere");
            assertEquals("hello small", users.hello("small"));
        }
    }

    @Test
    void responseOverTheProvidersLimitBecomesAnErrorAnswer() {
        try (Ferry tight = Ferry.builder().protocol(ProtocolConfig.builder().host("127.0.0.1").port(0)
                .payloadBytes(4096).build()).build()) {
            int port = tight.export(ServiceConfig.builder(UserService.class, new UserServiceImpl()).build());
            UserService users = consumer.reference(ReferenceConfig.builder(UserService.class)
                    .url("dubbo://127.0.0.1:" + port).build());
            RpcException e = assertThrows(RpcException.class, () -> users.big(10_000));
            assertEquals(RpcStatus.PAYLOAD_TOO_LARGE, e.status(), "an answer too large is not a serialization error");
            assertTrue(e.getMessage().contains("exceeds"), e.getMessage());
            assertEquals(100, users.big(100).length());
        }
    }

    @Test
    void responseOverTheConsumersLimitFailsOnlyThatCall() {
        try (Ferry tight = Ferry.builder().consumer(ConsumerConfig.builder().payloadBytes(4096).build()).build()) {
            UserService users = tight.reference(ReferenceConfig.builder(UserService.class).url(url).build());
            RpcException e = assertThrows(RpcException.class, () -> users.big(10_000));
            assertEquals(RpcStatus.PAYLOAD_TOO_LARGE, e.status());
            assertEquals(100, users.big(100).length(), "the connection carries on");
        }
    }

    /** A subtype the consumer trusts but the provider's signatures never mention. */
    public static final class Gadget implements java.io.Serializable {
        private static final long serialVersionUID = 1L;
        public String name = "g";
    }

    @Test
    void aClassTheProviderDoesNotAllowIsRefusedUnrunAndTheMessageSaysWhereToAllowIt() {
        UserService users = consumer.reference(ReferenceConfig.builder(UserService.class).url(url)
                .allowList(io.ferry.rpc.ClassAllowList.ofClasses(Gadget.class)).build());
        RpcException e = assertThrows(RpcException.class, () -> users.describe(new Gadget()));
        assertEquals(RpcStatus.BAD_REQUEST, e.status());
        assertTrue(e.isNotExecuted(), "the provider refused it before running anything");
        assertTrue(e.getMessage().contains(Gadget.class.getName()), e.getMessage());
        assertTrue(e.getMessage().contains("allow it on the provider, in its ServiceConfig.allowList"),
                e.getMessage());
    }

    @Test
    void unknownServiceVersionIsAnsweredServiceNotFound() {
        UserService users = consumer.reference(ReferenceConfig.builder(UserService.class).url(url)
                .version("9.9").build());
        RpcException e = assertThrows(RpcException.class, () -> users.hello("x"));
        assertEquals(RpcStatus.SERVICE_NOT_FOUND, e.status());
    }

    @Test
    void connectionsGiveAReferenceItsOwnConnectionsOnDistinctIoThreads() throws Exception {
        try (Ferry many = Ferry.builder().consumer(ConsumerConfig.builder().ioThreads(4).build()).build()) {
            UserService users = many.reference(ReferenceConfig.builder(UserService.class).url(url)
                    .connections(3).build());
            for (int i = 0; i < 9; i++) {
                assertEquals("hello " + i, users.hello("" + i));
            }
        }
    }

    @Test
    void lazyReferenceConnectsOnFirstCall() {
        UserService users = consumer.reference(ReferenceConfig.builder(UserService.class).url(url)
                .lazy(true).build());
        assertEquals("hello lazy", users.hello("lazy"));
    }

    @Test
    void deadProviderFailsFastWithNetworkError() {
        provider.close();
        UserService users = consumer.reference(ReferenceConfig.builder(UserService.class).url(url).check(false)
                .build());
        RpcException e = assertThrows(RpcException.class, () -> users.hello("anyone"));
        assertEquals(RpcStatus.NETWORK, e.status(), e.toString());
        assertTrue(e.isNotExecuted());
    }

    /** A {@code DIRECT} provider runs its methods on its IO threads: a synchronous call made from there fails. */
    @Test
    void syncCallOnAnIoThreadFailsAtOnce() throws Exception {
        CompletableFuture<Throwable> seen = new CompletableFuture<>();
        Ferry relay = Ferry.builder().application(ApplicationConfig.of("e2e-relay")).protocol(ProtocolConfig.builder()
                .host("127.0.0.1").port(0).dispatcher(Dispatcher.DIRECT).build()).build();
        try {
            UserService users = relay.reference(ReferenceConfig.builder(UserService.class).url(url).build());
            int port = relay.export(ServiceConfig.builder(UserService.class, new UserServiceImpl() {
                @Override
                public String hello(String name) {
                    try {
                        users.hello(name);
                        seen.complete(null);
                    } catch (Throwable t) {
                        seen.complete(t);
                    }
                    return "relayed on " + Thread.currentThread().getName();
                }
            }).build());
            UserService viaRelay = consumer.reference(ReferenceConfig.builder(UserService.class)
                    .url("dubbo://127.0.0.1:" + port).build());
            String answer = viaRelay.hello("from io");
            assertTrue(answer.startsWith("relayed on ferry-server-io"), answer);
            Throwable t = seen.get(5, TimeUnit.SECONDS);
            RpcException e = assertInstanceOf(RpcException.class, t);
            assertEquals(RpcStatus.ILLEGAL_STATE, e.status());
            assertTrue(e.getMessage().contains("IO thread"), e.getMessage());
        } finally {
            relay.close();
        }
    }

    @Test
    void asyncFailureCompletesTheFutureExceptionally() {
        UserService users = reference();
        CompletableFuture<User> f = RpcContext.async(() -> {
            try {
                return users.getUser(-1);
            } catch (UserNotFoundException e) {
                throw new AssertionError(e);
            }
        });
        ExecutionException e = assertThrows(ExecutionException.class, () -> f.get(5, TimeUnit.SECONDS));
        assertInstanceOf(UserNotFoundException.class, e.getCause());
    }
}
