package io.ferry.rpc.config;

import io.ferry.rpc.RpcException;
import io.ferry.rpc.config.fixtures.Answers;
import io.ferry.rpc.config.fixtures.ChildProviders;
import io.ferry.rpc.config.fixtures.WhoAmI;
import io.ferry.rpc.config.fixtures.ZooKeeperFixture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicIntegerArray;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Two providers in JVMs of their own, eight callers in a closed loop, and one provider frozen by SIGSTOP (its TCP
 * connections stay up, it answers nothing, not even heartbeats). With the defaults (adaptive balancing, outlier
 * ejection, 60 s heartbeats) successful calls per second are back to at least 80 % of the level before the freeze
 * within 2 seconds of it.
 */
class FrozenProviderTest {
    private static final int CALLERS = 8;
    private static final long BUCKET_MILLIS = 100;

    @RegisterExtension
    final ChildProviders providers = new ChildProviders();
    @RegisterExtension
    final ZooKeeperFixture zk = new ZooKeeperFixture();

    @Test
    void callsRecoverWithinTwoSecondsOfAProviderFreezing() throws Exception {
        ChildProviders.Child frozen = providers.start(zk.server().port(), "a");
        providers.start(zk.server().port(), "b");
        Ferry consumer = zk.track(Ferry.builder().registry(zk.registry("consumer")).shutdownHook(false).build());
        WhoAmI who = consumer.reference(ReferenceConfig.builder(WhoAmI.class).build());
        assertTrue(Answers.from(who, Set.of("a", "b"), Duration.ofSeconds(30)),
                "both providers answer before the load starts");

        long warmUpMillis = 2500;
        long afterMillis = 3000;
        AtomicIntegerArray succeeded = new AtomicIntegerArray((int) ((warmUpMillis + afterMillis) / BUCKET_MILLIS));
        long start = System.nanoTime();
        long end = start + TimeUnit.MILLISECONDS.toNanos(warmUpMillis + afterMillis);
        ExecutorService callers = Executors.newFixedThreadPool(CALLERS);
        List<Future<?>> loops = new ArrayList<>();
        for (int i = 0; i < CALLERS; i++) {
            loops.add(callers.submit(() -> {
                while (System.nanoTime() < end) {
                    try {
                        who.who();
                        int bucket = (int) (TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start) / BUCKET_MILLIS);
                        if (bucket < succeeded.length()) {
                            succeeded.incrementAndGet(bucket);
                        }
                    } catch (RpcException failedCall) {
                        // counted by its absence
                    }
                }
            }));
        }
        ScheduledExecutorService clock = Executors.newSingleThreadScheduledExecutor();
        try {
            Future<?> freeze = clock.schedule(() -> {
                providers.freeze(frozen);
                return null;
            }, warmUpMillis, TimeUnit.MILLISECONDS);
            for (Future<?> loop : loops) {
                loop.get(30, TimeUnit.SECONDS);
            }
            freeze.get();
        } finally {
            callers.shutdownNow();
            clock.shutdownNow();
        }

        int freezeBucket = (int) (warmUpMillis / BUCKET_MILLIS);
        double before = perSecond(succeeded, freezeBucket - 10, freezeBucket);
        double dip = perSecond(succeeded, freezeBucket, freezeBucket + 10);
        double recovered = perSecond(succeeded, freezeBucket + 10, freezeBucket + 20);
        double later = perSecond(succeeded, freezeBucket + 20, freezeBucket + 30);
        String figures = String.format("successful calls/s: before %.0f, first second after the freeze %.0f, "
                + "second second %.0f (%.0f %%), third second %.0f", before, dip, recovered,
                100 * recovered / before, later);
        System.out.println("FROZEN PROVIDER " + figures);
        assertTrue(recovered >= 0.8 * before, figures);
    }

    private static double perSecond(AtomicIntegerArray buckets, int from, int to) {
        long sum = 0;
        for (int i = from; i < to; i++) {
            sum += buckets.get(i);
        }
        return sum * 1000.0 / ((to - from) * BUCKET_MILLIS);
    }
}
