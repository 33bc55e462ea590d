package io.ferry.rpc.config;

import io.ferry.rpc.Filter;
import io.ferry.rpc.Result;
import io.ferry.rpc.RpcContext;
import io.ferry.rpc.RpcException;
import io.ferry.rpc.RpcStatus;
import io.ferry.rpc.config.fixtures.Named;
import io.ferry.rpc.config.fixtures.Relay;
import io.ferry.rpc.config.fixtures.WhoAmI;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The one chain every call takes: filters on both sides, one deadline from the proxy down, and its messages. */
class CallChainTest {
    private final List<Ferry> started = new ArrayList<>();

    @AfterEach
    void closeAll() {
        started.forEach(Ferry::close);
    }

    private Ferry ferry(ProtocolConfig protocol, ConsumerConfig consumer) {
        Ferry ferry = Ferry.builder().protocol(protocol).consumer(consumer).shutdownHook(false).build();
        started.add(ferry);
        return ferry;
    }

    private static ProtocolConfig.Builder local() {
        return ProtocolConfig.builder().host("127.0.0.1").port(0);
    }

    /** A relay that answers locally, or through {@code next} when there is one. */
    private static final class RelayImpl implements Relay {
        volatile Relay next;

        @Override
        public String relay(String text) {
            return "relayed " + text + " " + RpcContext.current().requestAttachments().getOrDefault("tag", "-");
        }

        @Override
        public CompletableFuture<String> relayAsync(String text) {
            return CompletableFuture.completedFuture(relay(text));
        }

        @Override
        public long timeLeft() {
            Duration left = RpcContext.current().remainingTime();
            return left == null ? -1 : left.toMillis();
        }

        @Override
        public long timeLeftDownstream() {
            return next.timeLeft();
        }
    }

    @Test
    void filtersRunInOrderOnBothSidesAndCarryAttachmentsBothWays() throws Exception {
        List<String> seen = new CopyOnWriteArrayList<>();
        Filter providerWide = (invocation, next) -> {
            seen.add("provider " + invocation.method().getName());
            return next.invoke(invocation).thenApply(r -> new Result(r.value(), Map.of("served-by", "p1")));
        };
        Filter service = (invocation, next) -> {
            seen.add("service " + invocation.deadline().isNone());
            return next.invoke(invocation);
        };
        Ferry provider = ferry(local().filter(providerWide).build(), ConsumerConfig.defaults());
        int port = provider.export(ServiceConfig.builder(Relay.class, new RelayImpl()).filter(service).build());

        Filter consumerWide = (invocation, next) -> {
            seen.add("consumer " + invocation.deadline().timeoutMillis());
            invocation.attachments().put("tag", "t1");
            return next.invoke(invocation);
        };
        Filter reference = (invocation, next) -> {
            seen.add("reference " + invocation.attachments().get("tag"));
            return next.invoke(invocation);
        };
        Ferry consumer = ferry(ProtocolConfig.defaults(), ConsumerConfig.builder().filter(consumerWide).build());
        Relay relay = consumer.reference(ReferenceConfig.builder(Relay.class).url("dubbo://127.0.0.1:" + port)
                .timeout(Duration.ofMillis(1500)).filter(reference).build());

        assertEquals("relayed a t1", relay.relay("a"));
        assertEquals("p1", RpcContext.current().responseAttachments().get("served-by"));
        assertEquals(List.of("consumer 1500", "reference t1", "provider relay", "service false"), seen);

        CompletableFuture<Map<String, Object>> asyncAttachments = relay.relayAsync("b")
                .thenApply(v -> RpcContext.current().responseAttachments());
        assertEquals("p1", asyncAttachments.get(5, TimeUnit.SECONDS).get("served-by"),
                "an async call keeps the answer's attachments too");
    }

    @Test
    void aCallMadeWhileServingARequestInheritsWhatIsLeftOfItsDeadline() {
        RelayImpl downstreamImpl = new RelayImpl();
        Ferry downstream = ferry(local().build(), ConsumerConfig.defaults());
        int downPort = downstream.export(ServiceConfig.builder(Relay.class, downstreamImpl).build());

        RelayImpl middleImpl = new RelayImpl();
        Ferry middle = ferry(local().build(), ConsumerConfig.defaults());
        middleImpl.next = middle.reference(ReferenceConfig.builder(Relay.class)
                .url("dubbo://127.0.0.1:" + downPort).timeout(Duration.ofSeconds(30)).build());
        int middlePort = middle.export(ServiceConfig.builder(Relay.class, middleImpl).build());

        Ferry consumer = ferry(ProtocolConfig.defaults(), ConsumerConfig.defaults());
        Relay relay = consumer.reference(ReferenceConfig.builder(Relay.class)
                .url("dubbo://127.0.0.1:" + middlePort).timeout(Duration.ofMillis(2000)).build());
        long left = relay.timeLeftDownstream();
        assertTrue(left > 0 && left <= 2000, "the nested call had " + left + " ms, not its own 30 s");
        assertEquals(-1, middleImpl.timeLeft(), "outside a request there is no deadline");
    }

    @Test
    void aTimeoutThrownToASynchronousCallerCarriesTheCallersStackAndTheTimeout() {
        Named slow = new Named("slow");
        Ferry provider = ferry(local().build(), ConsumerConfig.defaults());
        int port = provider.export(ServiceConfig.builder(WhoAmI.class, slow).build());
        Ferry consumer = ferry(ProtocolConfig.defaults(), ConsumerConfig.defaults());
        WhoAmI who = consumer.reference(ReferenceConfig.builder(WhoAmI.class).url("dubbo://127.0.0.1:" + port)
                .timeout(Duration.ofMillis(300)).build());
        try {
            RpcException e = assertThrows(RpcException.class, who::hold);
            assertEquals(RpcStatus.TIMEOUT, e.status());
            assertTrue(e.getMessage().contains("within its timeout of 300 ms"), e.getMessage());
            assertTrue(Arrays.stream(e.getStackTrace()).anyMatch(f -> f.getMethodName().contains("CallersStack")),
                    "the thrown exception's trace is the caller's");
            assertEquals(1, e.getSuppressed().length, "the timer thread's original is kept");
            assertSame(RpcStatus.TIMEOUT, ((RpcException) e.getSuppressed()[0]).status());
        } finally {
            slow.release.countDown();
        }
    }

    @Test
    void asManyClosedLoopCallersAsThreadsNeverFindThePoolExhausted() throws Exception {
        int threads = 4;
        Ferry provider = ferry(local().threads(threads).build(), ConsumerConfig.defaults());
        int port = provider.export(ServiceConfig.builder(WhoAmI.class, new Named("p")).build());
        Ferry consumer = ferry(ProtocolConfig.defaults(), ConsumerConfig.defaults());
        WhoAmI who = consumer.reference(ReferenceConfig.builder(WhoAmI.class).url("dubbo://127.0.0.1:" + port)
                .timeout(Duration.ofSeconds(5)).retries(0).build());
        AtomicInteger exhausted = new AtomicInteger();
        ExecutorService callers = Executors.newFixedThreadPool(threads);
        try {
            List<Future<?>> loops = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                loops.add(callers.submit(() -> {
                    for (int i = 0; i < 500; i++) {
                        try {
                            who.who();
                        } catch (RpcException e) {
                            if (e.status() == RpcStatus.THREADPOOL_EXHAUSTED) {
                                exhausted.incrementAndGet();
                            } else {
                                throw e;
                            }
                        }
                    }
                }));
            }
            for (Future<?> loop : loops) {
                loop.get(60, TimeUnit.SECONDS);
            }
        } finally {
            callers.shutdownNow();
        }
        assertEquals(0, exhausted.get(), "never more requests in flight than threads");
    }

    @Test
    void executesRefusesACallOverTheLimitUnrunAndActivesDoesSoBeforeSending() throws Exception {
        Named held = new Named("held");
        Ferry provider = ferry(local().build(), ConsumerConfig.defaults());
        int port = provider.export(ServiceConfig.builder(WhoAmI.class, held).executes(1).build());
        Ferry consumer = ferry(ProtocolConfig.defaults(), ConsumerConfig.defaults());
        WhoAmI who = consumer.reference(ReferenceConfig.builder(WhoAmI.class).url("dubbo://127.0.0.1:" + port)
                .timeout(Duration.ofSeconds(5)).build());
        WhoAmI limited = consumer.reference(ReferenceConfig.builder(WhoAmI.class).url("dubbo://127.0.0.1:" + port)
                .timeout(Duration.ofSeconds(5)).actives(1).build());
        ExecutorService caller = Executors.newSingleThreadExecutor();
        try {
            Future<String> first = caller.submit(limited::hold);
            assertTrue(held.held.await(10, TimeUnit.SECONDS));

            RpcException overActives = assertThrows(RpcException.class, limited::hold);
            assertEquals(RpcStatus.LIMIT_EXCEEDED, overActives.status());
            assertTrue(overActives.isNotExecuted());
            assertTrue(overActives.getMessage().contains("actives = 1"), overActives.getMessage());

            RpcException overExecutes = assertThrows(RpcException.class, who::hold);
            assertEquals(RpcStatus.LIMIT_EXCEEDED, overExecutes.status(), "sent as 100 with the limit's prefix");
            assertTrue(overExecutes.isNotExecuted());
            assertTrue(overExecutes.getMessage().contains("executes = 1"), overExecutes.getMessage());
            assertEquals("held", who.who(), "the limit is per method");

            held.release.countDown();
            assertEquals("held", first.get(10, TimeUnit.SECONDS));
        } finally {
            held.release.countDown();
            caller.shutdownNow();
        }
    }
}
