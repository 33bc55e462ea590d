package io.ferry.rpc.remoting.internal.server;

import io.ferry.rpc.ClassAllowList;
import io.ferry.rpc.Deadline;
import io.ferry.rpc.Filter;
import io.ferry.rpc.Invocation;
import io.ferry.rpc.Invoker;
import io.ferry.rpc.ProviderRefusal;
import io.ferry.rpc.Result;
import io.ferry.rpc.RpcContext;
import io.ferry.rpc.RpcException;
import io.ferry.rpc.RpcStatus;
import io.ferry.rpc.Ticker;
import io.ferry.rpc.remoting.Dispatcher;
import io.ferry.rpc.remoting.Greeter;
import io.ferry.rpc.remoting.internal.codec.FrameDecoder;
import io.ferry.rpc.remoting.internal.codec.FrameEncoder;
import io.ferry.rpc.remoting.internal.codec.RequestCodec;
import io.ferry.rpc.remoting.internal.service.ProviderService;
import io.ferry.rpc.remoting.internal.service.ServiceSchema;
import io.ferry.rpc.remoting.internal.service.ServiceTable;
import io.ferry.rpc.testkit.StandardErrorLines;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.util.concurrent.GlobalEventExecutor;
import org.junit.jupiter.api.Test;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Ferry's provider features as filters before the user's: the context, the expired-request drop, the slow-call log
 * and exception sanitising, on a fake clock; and how the answer path turns what they produce into frames.
 */
class ProviderChainTest {
    private static final int LIMIT = 64 * 1024;
    private static final ServiceSchema GREETER = ServiceSchema.of(Greeter.class, ClassAllowList.none(),
            ServiceSchema.Side.PROVIDER);
    private static final InetSocketAddress CONSUMER = new InetSocketAddress("127.0.0.1", 40000);

    private final AtomicLong now = new AtomicLong();
    private final Ticker ticker = now::get;

    private Invocation hello(Deadline deadline) throws Exception {
        return new Invocation(Greeter.class.getName(), "", "", Greeter.class.getMethod("hello", String.class),
                new Object[] {"x"}, Map.of(), deadline, false, null);
    }

    /** The chain as a request runs it: the context filter, then Ferry's filters, then {@code user}. */
    private CompletableFuture<Result> run(Invocation invocation, Duration timeout, Invoker user) {
        return run(invocation, timeout, user, null);
    }

    private CompletableFuture<Result> run(Invocation invocation, Duration timeout, Invoker user, Filter front) {
        Invoker chain = ProviderChain.around(user, GREETER, timeout, Map.of(), ticker, front);
        return new ContextFilter(CONSUMER, null).invoke(invocation, chain);
    }

    /** A front filter that keeps what each call ended with, as the access log would. */
    private static Filter seeing(List<Object> outcomes) {
        return (invocation, next) -> next.invoke(invocation).whenComplete((value, error) -> outcomes.add(
                error == null ? value.value() : error instanceof CompletionException c ? c.getCause() : error));
    }

    private static Throwable failure(CompletableFuture<Result> result) {
        return assertThrows(CompletionException.class, result::join).getCause();
    }

    @Test
    void aRequestWhoseCallerGaveUpIsRefusedUnrunAsTimeout() throws Exception {
        Deadline deadline = Deadline.startingAt(0, TimeUnit.MILLISECONDS.toNanos(100), ticker);
        now.set(TimeUnit.MILLISECONDS.toNanos(250));

        Throwable refused = failure(run(hello(deadline), null, invocation -> {
            throw new AssertionError("an expired request must not run");
        }));

        ProviderRefusal refusal = assertInstanceOf(ProviderRefusal.class, refused);
        assertEquals(RpcStatus.TIMEOUT, refusal.status());
        assertTrue(refusal.isNotExecuted());
        assertEquals(RpcStatus.EXPIRED_PREFIX + "Greeter.hello waited 250 ms on the provider, past the 100 ms its"
                + " caller had left", refusal.getMessage());
    }

    @Test
    void theFrontFilterSeesADeadlineDropAndWhatTheServiceThrewBeforeItIsMadeDeliverable() throws Exception {
        class Unlisted extends RuntimeException {
        }
        List<Object> outcomes = new ArrayList<>();
        Deadline deadline = Deadline.startingAt(0, TimeUnit.MILLISECONDS.toNanos(100), ticker);
        now.set(TimeUnit.MILLISECONDS.toNanos(250));
        failure(run(hello(deadline), null, invocation -> {
            throw new AssertionError("an expired request must not run");
        }, seeing(outcomes)));
        Throwable delivered = failure(run(hello(Deadline.none()), null,
                invocation -> CompletableFuture.failedFuture(new Unlisted()), seeing(outcomes)));

        assertEquals(RpcStatus.TIMEOUT, assertInstanceOf(ProviderRefusal.class, outcomes.get(0)).status(),
                "the drop, which runs inside the front filter");
        assertInstanceOf(Unlisted.class, outcomes.get(1), "the service's own class");
        assertEquals(RuntimeException.class, delivered.getClass(), "still sanitised for the consumer");
    }

    @Test
    void theContextHoldsTheCallWhileItRunsAndItsAttachmentsGoBackWithAFailure() throws Exception {
        CompletableFuture<Result> result = run(hello(Deadline.none()), null, invocation -> {
            assertEquals(CONSUMER, RpcContext.current().remoteAddress());
            RpcContext.current().setResponseAttachment("seen", "yes");
            throw new IllegalStateException("boom");
        });

        ContextFilter.AttachedFailure failed = assertInstanceOf(ContextFilter.AttachedFailure.class,
                failure(result));
        assertEquals(Map.of("seen", "yes"), failed.attachments);
        assertEquals(IllegalStateException.class, failed.getCause().getClass(), "a JDK class goes as it is");
        assertEquals(null, RpcContext.current().remoteAddress(), "cleared once the call has started");
    }

    @Test
    void anExceptionTheConsumerCouldNotDecodeGoesAsARuntimeExceptionNamingIt() throws Exception {
        class Unlisted extends RuntimeException {
            Unlisted() {
                super("not on the allow-list");
            }
        }
        Throwable delivered = failure(run(hello(Deadline.none()), null,
                invocation -> CompletableFuture.failedFuture(new Unlisted())));

        assertEquals(RuntimeException.class, delivered.getClass());
        assertEquals(Unlisted.class.getName() + ": not on the allow-list", delivered.getMessage());
    }

    @Test
    void aLimitsRefusalPassesUnchangedToBeAnsweredAsItsStatus() throws Exception {
        RpcException limit = new ProviderRefusal(RpcStatus.LIMIT_EXCEEDED,
                RpcStatus.LIMIT_EXCEEDED_PREFIX + "Greeter.hello");
        assertSame(limit, failure(run(hello(Deadline.none()), null,
                invocation -> CompletableFuture.failedFuture(limit))));
    }

    @Test
    void aCallOverItsProviderTimeoutIsLoggedAndStillAnswered() throws Exception {
        try (StandardErrorLines log = new StandardErrorLines()) {
            Result result = run(hello(Deadline.none()), Duration.ofSeconds(1), invocation -> {
                now.addAndGet(TimeUnit.SECONDS.toNanos(2)); // the call takes two seconds of fake time
                return CompletableFuture.completedFuture(Result.of("late"));
            }).join();

            assertEquals("late", result.value());
            assertEquals(1, log.containing("Greeter.hello took 2000 ms, over its provider timeout of 1000 ms"
                    + " (a call from " + CONSUMER + ")").size(), log.containing("").toString());
        }
    }

    /** The status byte of the answer the provider writes for one request to {@code user}, read on {@code clock}. */
    private static byte answerStatus(Invoker user, Ticker clock) throws Exception {
        ServiceTable services = new ServiceTable();
        services.add(new ProviderService(GREETER, "", "", ProviderChain.around(user, GREETER, null, Map.of(),
                clock, null)));
        EmbeddedChannel channel = new EmbeddedChannel(new FrameDecoder(FrameDecoder.Side.PROVIDER, LIMIT),
                new ServerHandler(services, new BusinessPools(new BusinessPool(new ThreadPoolExecutor(1, 1, 0,
                        TimeUnit.SECONDS, new SynchronousQueue<>()), 1)), Dispatcher.DIRECT, LIMIT,
                        new DefaultChannelGroup(GlobalEventExecutor.INSTANCE), 0, clock));
        try {
            Invocation invocation = new Invocation(Greeter.class.getName(), "", "", Greeter.class.getMethod("hello",
                    String.class), new Object[] {"x"}, Map.of(), Deadline.after(Duration.ofMillis(500),
                    Ticker.system()), false, null);
            channel.writeInbound(FrameEncoder.encode(ByteBufAllocator.DEFAULT, 0xC2, (byte) 0, 7,
                    GREETER.serializerFactory(), LIMIT, out -> RequestCodec.write(out, invocation,
                            GREETER.method(invocation.method()))));
            ByteBuf answer = channel.readOutbound();
            assertEquals(7, answer.getLong(4));
            byte status = answer.getByte(3);
            answer.release();
            return status;
        } finally {
            channel.finishAndReleaseAll();
        }
    }

    @Test
    void refusalsAreAnsweredAsStatusFramesNotExceptionValues() throws Exception {
        // every reading of this ticker is a second after the one before: the request has expired by the filter
        AtomicLong seconds = new AtomicLong();
        Ticker racing = () -> seconds.addAndGet(TimeUnit.SECONDS.toNanos(1));
        assertEquals(RpcStatus.TIMEOUT.wireCode(), answerStatus(invocation -> {
            throw new AssertionError("an expired request must not run");
        }, racing), "a status, not a value");
        assertEquals(RpcStatus.LIMIT_EXCEEDED.wireCode(), answerStatus(invocation -> CompletableFuture
                .failedFuture(new ProviderRefusal(RpcStatus.LIMIT_EXCEEDED, "limit")), ticker));
    }

    @Test
    void aServiceThatRethrowsALimitItsOwnCallMetRanAndAnswersWithItAsAValue() throws Exception {
        // the service ran: its own outbound call was refused by that reference's actives limit
        RpcException fromItsOwnCall = RpcException.notExecuted(RpcStatus.LIMIT_EXCEEDED, "its own call", null);
        assertEquals(20, answerStatus(invocation -> CompletableFuture.failedFuture(fromItsOwnCall), ticker),
                "OK: the exception is the answer's value, not a refusal the consumer would retry elsewhere");
    }
}
