package io.ferry.rpc.config.interop;

import io.ferry.rpc.Filter;
import io.ferry.rpc.Ticker;
import io.ferry.rpc.config.ApplicationConfig;
import io.ferry.rpc.config.Ferry;
import io.ferry.rpc.config.ProtocolConfig;
import io.ferry.rpc.config.ServiceConfig;
import io.ferry.rpc.config.fixtures.Named;
import io.ferry.rpc.config.fixtures.WhoAmI;
import org.apache.dubbo.config.ReferenceConfig;
import org.apache.dubbo.config.bootstrap.DubboBootstrap;
import org.apache.dubbo.rpc.RpcException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A stock Dubbo 3.3.6 consumer with {@code enable-timeout-countdown} sends the time it has left ({@code _TO}); a
 * Ferry provider does not run a request whose time ran out while it waited for a thread, answers it 31, and the
 * Dubbo consumer, which gave up on that call already, keeps using the connection.
 */
class DubboDeadlineInteropTest {
    private final Named impl = new Named("ferry");
    private final List<String> ran = new CopyOnWriteArrayList<>();
    private Ferry ferry;
    private DubboBootstrap dubbo;

    @AfterEach
    void stop() {
        impl.release.countDown();
        if (dubbo != null) {
            dubbo.destroy();
        }
        if (ferry != null) {
            ferry.close();
        }
    }

    @Test
    void aRequestWhoseCountdownRanOutWhileQueuedIsNotRun() throws Exception {
        DubboLoopback.ignoreOtherInterfaces();
        Filter recording = (invocation, next) -> {
            ran.add(invocation.method().getName());
            return next.invoke(invocation);
        };
        ferry = Ferry.builder().application(ApplicationConfig.of("ferry-provider")).shutdownHook(false)
                .protocol(ProtocolConfig.builder().host("127.0.0.1").port(0).threads(1).queues(2).filter(recording)
                        .build()).build();
        int port = ferry.export(ServiceConfig.builder(WhoAmI.class, impl).build());

        ReferenceConfig<WhoAmI> reference = new ReferenceConfig<>();
        reference.setInterface(WhoAmI.class);
        reference.setUrl("dubbo://127.0.0.1:" + port + "?serialization=hessian2");
        reference.setTimeout(300);
        reference.setRetries(0);
        reference.setParameters(Map.of("enable-timeout-countdown", "true"));
        dubbo = DubboBootstrap.newInstance();
        dubbo.application(DubboLoopback.application("dubbo-consumer")).reference(reference).start();
        WhoAmI who = reference.get();

        Thread holder = new Thread(() -> assertThrows(RpcException.class, who::hold), "holder");
        holder.start();
        assertTrue(impl.held.await(10, TimeUnit.SECONDS), "hold() has the provider's only thread");
        RpcException timedOut = assertThrows(RpcException.class, who::who, "queued behind hold() past 300 ms");
        assertTrue(timedOut.isTimeout(), timedOut.toString());
        // the request left with at most 300 ms to go, and reached the provider about when its caller gave up (on a
        // loaded machine, perhaps a little after): twice that later its deadline has passed on the provider too,
        // whatever the order in which the release below and the arrival happened to come (a flaky run saw it run)
        long gaveUp = Ticker.system().nanoTime();
        await().atMost(Duration.ofSeconds(10)).until(() -> Ticker.system().nanoTime() - gaveUp
                > TimeUnit.MILLISECONDS.toNanos(600));

        holder.join(10_000); // its caller gave up after 300 ms; the provider still runs hold()
        impl.release.countDown();
        // queued behind the expired who(), on the one thread: it runs only after that one was answered
        assertEquals("ferry", who.who(), "the same connection still serves, after the late answer 31");
        assertEquals(List.of("hold", "who"), ran, "the queued who() was answered 31 without running");
    }
}
