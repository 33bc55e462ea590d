package io.ferry.rpc.config;

import io.ferry.rpc.RpcException;
import io.ferry.rpc.config.fixtures.ChildProviders;
import io.ferry.rpc.config.fixtures.WhoAmI;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A provider process killed and started again on the same port 2 s later, while four callers keep calling it
 * (default timeout and reconnect back-off: 1 s; 100 ms doubling to 5 s). By then the back-off has grown to
 * seconds; while the provider is down, calls fail at once (it is known to be unreachable), and each pulls the next
 * connect attempt forward, at most once per 100 ms. So once the new provider listens, no call fails for want of a
 * connection more than about 200 ms later.
 */
class ProviderRestartTest {
    private static final int CALLERS = 4;

    @RegisterExtension
    final ChildProviders providers = new ChildProviders();

    private record Outcome(long endNanos, boolean ok) {
    }

    @Test
    void callsFindTheRestartedProviderWithinAboutTwoHundredMilliseconds() throws Exception {
        ChildProviders.Child first = providers.start(0, "first");
        int port = first.port();
        try (Ferry consumer = Ferry.builder().shutdownHook(false).build()) {
            WhoAmI who = consumer.reference(ReferenceConfig.builder(WhoAmI.class)
                    .url("dubbo://127.0.0.1:" + port).build());
            assertEquals("first", who.who());

            ConcurrentLinkedQueue<Outcome> outcomes = new ConcurrentLinkedQueue<>();
            AtomicLong stopAt = new AtomicLong(Long.MAX_VALUE);
            ExecutorService callers = Executors.newFixedThreadPool(CALLERS);
            List<Future<?>> loops = new ArrayList<>();
            for (int i = 0; i < CALLERS; i++) {
                loops.add(callers.submit(() -> {
                    while (System.nanoTime() < stopAt.get()) {
                        boolean ok;
                        try {
                            who.who();
                            ok = true;
                        } catch (RpcException e) {
                            ok = false;
                        }
                        outcomes.add(new Outcome(System.nanoTime(), ok));
                    }
                }));
            }
            long ready;
            ScheduledExecutorService clock = Executors.newSingleThreadScheduledExecutor();
            try {
                providers.kill(first);
                // the experiment's clock: the provider stays down for 2 s while the callers keep calling
                clock.schedule(() -> providers.start(0, "second", port), 2, TimeUnit.SECONDS).get(30, TimeUnit.SECONDS);
                ready = System.nanoTime(); // it printed READY: it listens
                stopAt.set(ready + TimeUnit.SECONDS.toNanos(2));
                for (Future<?> loop : loops) {
                    loop.get(30, TimeUnit.SECONDS);
                }
            } finally {
                stopAt.set(0);
                callers.shutdownNow();
                clock.shutdownNow();
            }

            long failures = outcomes.stream().filter(o -> !o.ok()).count();
            long lastFailureAfterReady = outcomes.stream().filter(o -> !o.ok())
                    .mapToLong(o -> TimeUnit.NANOSECONDS.toMillis(o.endNanos() - ready)).max().orElse(-1);
            long okAfter = outcomes.stream().filter(o -> o.ok() && o.endNanos() > ready).count();
            String figures = failures + " calls failed in all; the last one ended " + lastFailureAfterReady
                    + " ms after the new provider listened; " + okAfter + " calls succeeded after it";
            System.out.println("PROVIDER RESTART " + figures);
            assertTrue(lastFailureAfterReady <= 300, figures);
            assertTrue(okAfter > 0, figures);
        }
    }
}
