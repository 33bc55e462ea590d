package io.ferry.rpc.benchmark.congestion;

import io.ferry.rpc.RpcContext;
import io.ferry.rpc.RpcException;
import io.ferry.rpc.benchmark.Latencies;
import io.ferry.rpc.config.ApplicationConfig;
import io.ferry.rpc.config.ConsumerConfig;
import io.ferry.rpc.config.Ferry;
import io.ferry.rpc.config.ReferenceConfig;
import io.ferry.rpc.remoting.ConnectionInfo;
import io.ferry.rpc.remoting.SocketOptions;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * One run of the field report's load against one connection set-up: several consumers (one Ferry bootstrap each)
 * send a spike of calls for {@code spikeSeconds}, answers of 1 KiB, 64 KiB, 512 KiB or 2 MiB after a 0–300 ms
 * pause, then near silence (one small call a second) for {@code quietSeconds}. Every call has a 1 s timeout and no
 * retry. Records one row a second.
 */
final class SpikeRun {
    private static final int[] SIZES = {1024, 64 * 1024, 512 * 1024, 2 * 1024 * 1024};

    /** A connection set-up: {@code connections = 0} is the elastic shared pool. */
    record Setup(String name, int connections, int socketBuffer) {
    }

    /** One second of the run. */
    static final class Second {
        final Latencies latencyMicros = new Latencies();
        final AtomicLong timeouts = new AtomicLong();
        final AtomicLong congested = new AtomicLong();
        final AtomicLong otherFailures = new AtomicLong();
        volatile long maxQueuedPerConnection;
        volatile int connections;
        volatile long providerHeap = -1;
        volatile long providerDirect = -1;
        volatile long providerRss = -1;
        volatile long providerRunning = -1;
        volatile long providerMaxQueued;
    }

    /** What a run gives the report. */
    record Outcome(Setup setup, Second[] seconds, int spikeSeconds, long executed, long executedLate,
                   long lastSpikeWorkEndedMillisAfterSpike, Map<String, Long> failures) {
    }

    private final Setup setup;
    private final int consumers;
    private final int rate;
    private final int spikeSeconds;
    private final int quietSeconds;
    private final Map<String, AtomicLong> failures = new ConcurrentHashMap<>();

    SpikeRun(Setup setup, int consumers, int rate, int spikeSeconds, int quietSeconds) {
        this.setup = setup;
        this.consumers = consumers;
        this.rate = rate;
        this.spikeSeconds = spikeSeconds;
        this.quietSeconds = quietSeconds;
    }

    Outcome run() throws Exception {
        try (ProviderProcess provider = new ProviderProcess(setup.socketBuffer())) {
            String url = "dubbo://127.0.0.1:" + provider.port();
            SocketOptions socket = SocketOptions.builder().sendBufferBytes(setup.socketBuffer())
                    .receiveBufferBytes(setup.socketBuffer()).build();
            List<Ferry> bootstraps = new ArrayList<>();
            List<Blob> blobs = new ArrayList<>();
            for (int i = 0; i < consumers; i++) {
                Ferry ferry = Ferry.builder().application(ApplicationConfig.of("congestion-consumer-" + i))
                        .shutdownHook(false)
                        .consumer(ConsumerConfig.builder().socket(socket).timeout(Duration.ofSeconds(1)).retries(0)
                                .build()).build();
                bootstraps.add(ferry);
                ReferenceConfig.Builder<Blob> reference = ReferenceConfig.builder(Blob.class).url(url);
                if (setup.connections() > 0) {
                    reference.connections(setup.connections());
                }
                blobs.add(ferry.reference(reference.build()));
            }
            Ferry observer = Ferry.builder().application(ApplicationConfig.of("congestion-observer"))
                    .shutdownHook(false).build();
            Blob stats = observer.reference(ReferenceConfig.builder(Blob.class).url(url).connections(1)
                    .timeout(Duration.ofSeconds(5)).build());
            try {
                return drive(blobs, bootstraps, stats);
            } finally {
                bootstraps.forEach(Ferry::close);
                observer.close();
            }
        }
    }

    /** Both JVMs compile the call path before anything is measured: a quarter of the spike's rate for 5 s. */
    private void warmUp(List<Blob> blobs) throws InterruptedException {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        long next = System.nanoTime();
        int call = 0;
        while (System.nanoTime() < end) {
            next += TimeUnit.SECONDS.toNanos(1) / Math.max(1, rate / 4);
            LockSupport.parkNanos(next - System.nanoTime());
            ThreadLocalRandom random = ThreadLocalRandom.current();
            Blob blob = blobs.get(call++ % blobs.size());
            int size = SIZES[random.nextInt(SIZES.length)];
            RpcContext.async(() -> blob.fetch(size, random.nextInt(50)));
        }
        TimeUnit.SECONDS.sleep(2); // the warm-up's last calls end before the measured run starts
    }

    private Outcome drive(List<Blob> blobs, List<Ferry> bootstraps, Blob stats) throws InterruptedException {
        warmUp(blobs);
        int total = spikeSeconds + quietSeconds;
        Second[] seconds = new Second[total];
        Arrays.setAll(seconds, i -> new Second());
        long start = System.nanoTime();
        Thread sampler = new Thread(() -> sample(seconds, start, bootstraps, stats), "congestion-sampler");
        sampler.setDaemon(true);
        sampler.start();

        long next = start;
        int call = 0;
        while (true) {
            long now = System.nanoTime();
            int second = (int) TimeUnit.NANOSECONDS.toSeconds(now - start);
            if (second >= total) {
                break;
            }
            boolean spike = second < spikeSeconds;
            next += TimeUnit.SECONDS.toNanos(1) / (spike ? rate : 1);
            LockSupport.parkNanos(next - System.nanoTime());
            ThreadLocalRandom random = ThreadLocalRandom.current();
            int size = spike ? SIZES[random.nextInt(SIZES.length)] : 1024;
            int sleep = spike ? 1 + random.nextInt(300) : 0;
            Blob blob = blobs.get(call++ % blobs.size());
            long sent = System.nanoTime();
            RpcContext.async(() -> blob.fetch(size, sleep)).whenComplete((bytes, error) -> {
                int at = (int) TimeUnit.NANOSECONDS.toSeconds(sent - start);
                Second s = seconds[Math.min(at, total - 1)];
                if (error == null) {
                    s.latencyMicros.record(TimeUnit.NANOSECONDS.toMicros(System.nanoTime() - sent));
                } else {
                    Throwable cause = error.getCause() != null ? error.getCause() : error;
                    failures.computeIfAbsent(cause instanceof RpcException rpc ? rpc.status().name()
                            : cause.getClass().getSimpleName(), k -> new AtomicLong()).incrementAndGet();
                    if (cause instanceof RpcException rpc && rpc.status() == io.ferry.rpc.RpcStatus.TIMEOUT) {
                        s.timeouts.incrementAndGet();
                    } else if (cause instanceof RpcException rpc && rpc.status() == io.ferry.rpc.RpcStatus.CONGESTED) {
                        s.congested.incrementAndGet();
                    } else {
                        s.otherFailures.incrementAndGet();
                    }
                }
            });
        }
        sampler.interrupt();
        sampler.join(5_000);
        long[] last = stats.stats();
        long spikeEndMillis = System.currentTimeMillis() - TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)
                + TimeUnit.SECONDS.toMillis(spikeSeconds);
        Map<String, Long> byStatus = new TreeMap<>();
        failures.forEach((status, count) -> byStatus.put(status, count.get()));
        return new Outcome(setup, seconds, spikeSeconds, last[0], last[1], last[6] - spikeEndMillis, byStatus);
    }

    /**
     * Ten times a second: the most bytes queued on any consumer connection, and (asked of the provider) on any of
     * its connections; once a second, the provider's memory.
     */
    private void sample(Second[] seconds, long start, List<Ferry> bootstraps, Blob stats) {
        int lastStatsSecond = -1;
        while (!Thread.currentThread().isInterrupted()) {
            int second = (int) TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start);
            if (second >= seconds.length) {
                return;
            }
            Second s = seconds[second];
            long maxQueued = 0;
            int connections = 0;
            for (Ferry ferry : bootstraps) {
                for (ConnectionInfo c : ferry.consumerConnections().connections()) {
                    if (c.state() != ConnectionInfo.State.CLOSED) {
                        connections++;
                        maxQueued = Math.max(maxQueued, c.queuedBytes());
                    }
                }
            }
            s.maxQueuedPerConnection = Math.max(s.maxQueuedPerConnection, maxQueued);
            s.connections = Math.max(s.connections, connections);
            RpcContext.<long[]>async(stats::stats).thenAccept(p -> s.providerMaxQueued =
                    Math.max(s.providerMaxQueued, p[7]));
            if (second != lastStatsSecond) {
                lastStatsSecond = second;
                RpcContext.<long[]>async(stats::stats).thenAccept(p -> {
                    s.providerRunning = p[2];
                    s.providerHeap = p[3];
                    s.providerDirect = p[4];
                    s.providerRss = p[5];
                    s.providerMaxQueued = Math.max(s.providerMaxQueued, p[7]);
                }); // a provider too busy to answer within 5 s leaves the row without figures
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(100)); // a sampling tick, not a test
        }
    }
}
