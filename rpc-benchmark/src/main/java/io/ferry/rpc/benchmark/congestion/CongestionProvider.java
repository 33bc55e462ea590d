package io.ferry.rpc.benchmark.congestion;

import io.ferry.rpc.RpcContext;
import io.ferry.rpc.benchmark.Cli;
import io.ferry.rpc.config.ApplicationConfig;
import io.ferry.rpc.config.Ferry;
import io.ferry.rpc.config.ProtocolConfig;
import io.ferry.rpc.config.ServiceConfig;
import io.ferry.rpc.remoting.ConnectionInfo;
import io.ferry.rpc.remoting.SocketOptions;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufAllocatorMetricProvider;

import java.io.BufferedReader;
import java.io.IOException;
import java.lang.management.BufferPoolMXBean;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The provider process of the congestion experiment: serves {@link Blob} on 127.0.0.1 with Ferry's defaults (or
 * the socket buffers given), prints {@code READY <port>}, and runs until killed.
 * Usage: {@code CongestionProvider <socket buffer bytes, 0 = OS default>}.
 */
public final class CongestionProvider implements Blob {
    private final Map<Integer, byte[]> answers = new ConcurrentHashMap<>();
    private final AtomicLong executed = new AtomicLong();
    private final AtomicLong executedLate = new AtomicLong();
    private final AtomicLong running = new AtomicLong();
    private volatile long lastFinishedMillis;
    private volatile Ferry ferry;

    @Override
    public byte[] fetch(int bytes, int sleepMillis) {
        if (RpcContext.current().incomingDeadline().isExpired()) {
            executedLate.incrementAndGet(); // work nobody waits for any more
        }
        executed.incrementAndGet();
        running.incrementAndGet();
        try {
            TimeUnit.MILLISECONDS.sleep(sleepMillis); // the report being generated
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            running.decrementAndGet();
            if (sleepMillis > 0) {
                lastFinishedMillis = System.currentTimeMillis(); // the quiet phase's calls do not sleep
            }
        }
        return answers.computeIfAbsent(bytes, byte[]::new);
    }

    @Override
    public long[] stats() {
        Runtime rt = Runtime.getRuntime();
        long maxQueued = 0;
        Ferry self = ferry;
        if (self != null) {
            for (ConnectionInfo c : self.providerConnections().connections()) {
                maxQueued = Math.max(maxQueued, c.queuedBytes());
            }
        }
        return new long[] {executed.get(), executedLate.get(), running.get(), rt.totalMemory() - rt.freeMemory(),
                directMemoryUsed(), rssBytes(), lastFinishedMillis, maxQueued};
    }

    /**
     * Direct memory in use: the JDK's {@code direct} buffer pool, or Netty's default allocator if it holds more.
     * On this process's JVM (JDK 17+, no {@code --add-opens java.base/java.nio}) Netty cannot allocate direct
     * memory without a cleaner, so every chunk its allocator holds is a JDK direct buffer and already counted in
     * the pool, next to the JDK's own buffers (socket IO): the pool is the whole figure, and adding the
     * allocator's count to it would count Netty's chunks twice. Where Netty does run without cleaners the JDK does
     * not see its chunks, and the allocator's larger figure stands in for the whole, short of the JDK's own few
     * buffers.
     */
    static long directMemoryUsed() {
        long jdk = 0;
        for (BufferPoolMXBean pool : ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class)) {
            if ("direct".equals(pool.getName())) {
                jdk = pool.getMemoryUsed();
            }
        }
        long netty = ByteBufAllocator.DEFAULT instanceof ByteBufAllocatorMetricProvider allocator
                ? allocator.metric().usedDirectMemory() : 0;
        return Math.max(jdk, netty);
    }

    /** Resident set size from /proc (Linux). */
    static long rssBytes() {
        try (BufferedReader reader = Files.newBufferedReader(Path.of("/proc/self/status"))) {
            String line;
            while ((line = reader.readLine()) != null) {
                if (line.startsWith("VmRSS:")) {
                    return Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
                }
            }
        } catch (IOException | RuntimeException e) {
            // not Linux
        }
        return -1;
    }

    /** The command line: the socket buffer size, as {@link ProviderProcess} passes it. */
    @Command(name = "CongestionProvider", description = "Serves Blob on 127.0.0.1, prints READY <port>, and runs until "
            + "killed: the congestion experiment's provider, which CongestionExperiment starts.")
    static final class Options implements Callable<Integer> {
        @Mixin
        private Cli.HelpOption help;

        @Parameters(index = "0", arity = "0..1", defaultValue = "0", paramLabel = "BYTES", description = "Send and "
                + "receive buffer of each socket, in bytes; 0 for the OS's default (default: ${DEFAULT-VALUE}).")
        private int socketBuffer;

        @Override
        public Integer call() throws InterruptedException {
            serve(socketBuffer);
            return 0;
        }
    }

    public static void main(String[] args) {
        System.exit(commandLine().execute(args));
    }

    /** The command line {@link #main} parses and runs. */
    public static CommandLine commandLine() {
        return Cli.of(new Options());
    }

    private static void serve(int socketBuffer) throws InterruptedException {
        SocketOptions socket = SocketOptions.builder().sendBufferBytes(socketBuffer).receiveBufferBytes(socketBuffer)
                .build();
        Ferry ferry = Ferry.builder().application(ApplicationConfig.of("congestion-provider"))
                .protocol(ProtocolConfig.builder().host("127.0.0.1").port(0).socket(socket).build()).build();
        CongestionProvider blob = new CongestionProvider();
        blob.ferry = ferry;
        int port = ferry.export(ServiceConfig.builder(Blob.class, blob).build());
        System.out.println("READY " + port);
        System.out.flush();
        ferry.awaitTermination();
    }
}
