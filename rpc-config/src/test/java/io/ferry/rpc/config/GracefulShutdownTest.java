package io.ferry.rpc.config;

import io.ferry.rpc.testkit.StandardErrorLines;
import io.ferry.rpc.config.fixtures.Named;
import io.ferry.rpc.config.fixtures.WhoAmI;
import io.ferry.rpc.config.fixtures.ZooKeeperFixture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Stopping one of two providers while callers are running loses no call. */
class GracefulShutdownTest {
    @RegisterExtension
    final ZooKeeperFixture zk = new ZooKeeperFixture();

    private RegistryConfig registry(String cache) {
        return zk.registry(cache);
    }

    private Ferry provider(String name) {
        Ferry ferry = Ferry.builder().protocol(ProtocolConfig.builder().host("127.0.0.1").port(0)
                        .shutdown(Duration.ofMillis(300), Duration.ofSeconds(5)).build())
                .registry(registry(name + ".cache")).shutdownHook(false).build();
        // 5 ms of work per call: with 8 callers, several calls are always in flight on each provider
        ferry.export(ServiceConfig.builder(WhoAmI.class, new Named(name, TimeUnit.MILLISECONDS.toNanos(5))).build());
        return ferry;
    }

    @Test
    void stoppingOneOfTwoProvidersUnderLoadFailsNoCall() throws Exception {
        Ferry p1 = provider("p1");
        zk.track(provider("p2"));
        Ferry consumer = zk.track(Ferry.builder().registry(registry("c.cache")).shutdownHook(false).build());
        WhoAmI who = consumer.reference(ReferenceConfig.builder(WhoAmI.class)
                .timeout(Duration.ofSeconds(5)).build());

        Map<String, AtomicInteger> served = new ConcurrentHashMap<>();
        ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
        AtomicInteger calls = new AtomicInteger();
        AtomicBoolean running = new AtomicBoolean(true);
        CountDownLatch callersDone = new CountDownLatch(8);
        int p2Before;
        for (int t = 0; t < 8; t++) {
            Thread caller = new Thread(() -> {
                while (running.get()) {
                    try {
                        served.computeIfAbsent(who.who(), k -> new AtomicInteger()).incrementAndGet();
                    } catch (Throwable e) {
                        failures.add(e);
                    }
                    calls.incrementAndGet();
                }
                callersDone.countDown();
            }, "caller-" + t);
            caller.start();
        }
        try {
            // first connects are spread over up to 1 s: wait until both providers take calls
            await("both providers took calls").atMost(Duration.ofSeconds(20))
                    .until(() -> served.containsKey("p1") && served.containsKey("p2"));
            awaitCalls(calls, calls.get() + 200);

            p1.close(); // unregister, readonly, grace, refuse late requests, drain, close
            int afterStop = calls.get();
            p2Before = served.get("p2").get();
            awaitCalls(calls, afterStop + 500);
        } finally {
            running.set(false); // the callers stop however the test ends
        }
        assertTrue(callersDone.await(30, TimeUnit.SECONDS));

        assertEquals(List.of(), new ArrayList<>(failures), "no call failed");
        assertTrue(served.get("p2").get() - p2Before >= 450, "after the stop, p2 took the calls");
    }

    @Test
    void closeSaysWhatItDoesStepByStep() throws Exception {
        Ferry provider = provider("p1");
        Ferry consumer = zk.track(Ferry.builder().registry(registry("c.cache")).shutdownHook(false).build());
        WhoAmI who = consumer.reference(ReferenceConfig.builder(WhoAmI.class).build());
        assertEquals("p1", who.who());
        try (StandardErrorLines log = new StandardErrorLines()) {
            provider.close();
            log.inOrder("closing: unregistered from the registry", "readonly event sent to 1 consumer connection(s)",
                    ": closed in ", "Ferry closed in ");
        }
    }

    @Test
    void anIdleProviderSaysThereIsNoGraceToWaitOut() {
        Ferry idle = provider("idle");
        try (StandardErrorLines log = new StandardErrorLines()) {
            idle.close();
            log.inOrder("closing: unregistered from the registry",
                    "no consumer connected, so no readonly event and no grace period", ": closed in ",
                    "Ferry closed in ");
        }
    }

    /** Waits (at most 20 s) until the callers have made {@code target} calls. */
    private static void awaitCalls(AtomicInteger calls, int target) {
        await("the callers made " + target + " calls").atMost(Duration.ofSeconds(20))
                .until(calls::get, made -> made >= target);
    }
}
