package io.ferry.rpc.benchmark.c10k;

import io.ferry.rpc.benchmark.Cli;
import io.ferry.rpc.benchmark.Latencies;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The 10,000-consumer experiment (field report "one provider, 7,000 consumers"), as two processes on 127.0.0.1:
 * this driver, holding N consumer connections (one client each, as N consumers would), and a provider process it
 * starts, stalls or kills. Every connection carries a call every N / rate seconds; heartbeats are compressed.
 *
 * <pre>
 *   C10kExperiment scenario=steady|stall|restart connections=10000 rate=1000 heartbeatMs=5000 jitter=0.5
 *                  seconds=90 eventAt=30 provider=ferry|dubbo consumer=ferry|dubbo out=rpc-benchmark/results/NAME
 * </pre>
 * stall: the provider is frozen (SIGSTOP) for 6 s at eventAt, as a long GC pause would. restart: it is killed
 * (SIGKILL) at eventAt and started again on the same port 5 s later. jitter=0 turns off Ferry's per-cycle
 * heartbeat jitter, as in Dubbo. provider=dubbo serves Ping with stock Dubbo 3.3.6 instead of Ferry; consumer=dubbo
 * holds the connections with stock Dubbo 3.3.6's consumer (its fixed heartbeat timers and its reconnects) instead of
 * Ferry's. Writes NAME.csv (one row a second) and NAME.md (summary), and prints both. {@code --help} describes
 * every flag.
 */
public final class C10kExperiment {
    /** What happens to the provider at {@code eventAt}. */
    enum Scenario {
        STEADY, STALL, RESTART;

        @Override
        public String toString() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** Whose code serves, or holds the consumers' connections. */
    enum Side {
        FERRY, DUBBO;

        @Override
        public String toString() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** The command line: {@code name=value} flags, as {@code c10k.sh} passes them on. */
    @Command(name = "C10kExperiment", description = {"One provider and N consumer connections on 127.0.0.1, a "
            + "call every N / rate seconds on each; writes PATH.csv (one row a second) and PATH.md (the summary), "
            + "PATH as out= gives it.",
            "Run it through rpc-benchmark/c10k.sh, which passes its arguments on: "
                    + "bash rpc-benchmark/c10k.sh scenario=stall jitter=0"})
    static final class Options implements Callable<Integer> {
        @Spec
        private CommandSpec spec;

        @Mixin
        private Cli.HelpOption help;

        @Option(names = "scenario", defaultValue = "steady", paramLabel = "steady|stall|restart", description =
                "What happens to the provider at eventAt: nothing; frozen (SIGSTOP) for 6 s, as a long GC pause "
                        + "would; or killed and started again on its port 5 s later (default: ${DEFAULT-VALUE}).")
        private Scenario scenario;

        @Option(names = "connections", defaultValue = "10000", paramLabel = "N",
                description = "Consumer connections held, one client each (default: ${DEFAULT-VALUE}).")
        private int connections;

        @Option(names = "rate", defaultValue = "1000", paramLabel = "CALLS",
                description = "Calls per second over all connections, in turn (default: ${DEFAULT-VALUE}).")
        private int rate;

        @Option(names = "heartbeatMs", defaultValue = "5000", paramLabel = "MILLIS",
                description = "Heartbeat interval on both sides, in ms (default: ${DEFAULT-VALUE}).")
        private long heartbeatMillis;

        @Option(names = "jitter", defaultValue = "0.5", paramLabel = "FRACTION", description = "Ferry consumers' "
                + "per-cycle heartbeat jitter: each idle threshold is drawn in [1 - j, 1 + j) × the interval; 0 "
                + "for fixed timers, as Dubbo's (default: ${DEFAULT-VALUE}).")
        private double jitter;

        @Option(names = "seconds", defaultValue = "90", paramLabel = "SECONDS",
                description = "Length of the measured run, in seconds (default: ${DEFAULT-VALUE}).")
        private int seconds;

        @Option(names = "eventAt", defaultValue = "30", paramLabel = "SECOND",
                description = "The second of the run the stall or the kill happens in (default: ${DEFAULT-VALUE}).")
        private int eventAt;

        @Option(names = "provider", defaultValue = "ferry", paramLabel = "ferry|dubbo", description = "Who serves: "
                + "Ferry, or stock Dubbo 3.3.6 with its defaults (default: ${DEFAULT-VALUE}).")
        private Side provider;

        @Option(names = "consumer", defaultValue = "ferry", paramLabel = "ferry|dubbo", description = "Who holds "
                + "the connections: Ferry's clients, or stock Dubbo 3.3.6's with their fixed heartbeat timers "
                + "(default: ${DEFAULT-VALUE}).")
        private Side consumer;

        @Option(names = "out", paramLabel = "PATH", description = "Where the results go, without extension: "
                + "PATH.csv and PATH.md (default: rpc-benchmark/results/c10k-SCENARIO).")
        private String out;

        /** These options, checked. */
        Options checked() {
            Cli.atLeast(spec, "connections", connections, 1);
            Cli.atLeast(spec, "rate", rate, 1);
            Cli.atLeast(spec, "heartbeatMs", heartbeatMillis, 1);
            Cli.atLeast(spec, "seconds", seconds, 1);
            Cli.atLeast(spec, "eventAt", eventAt, 0);
            if (!(jitter >= 0 && jitter < 1)) {
                throw new ParameterException(spec.commandLine(), "jitter: " + jitter + " (expected: 0 <= jitter < 1)");
            }
            return this;
        }

        @Override
        public Integer call() throws Exception {
            new C10kExperiment(checked()).run();
            return 0;
        }
    }

    private final Options options;
    private final int connections;
    private final int rate;
    private final long heartbeatMillis;
    private final double jitter;
    private final int seconds;
    private final int eventAt;
    private final Scenario scenario;
    private final boolean dubboConsumers;
    private final boolean dubboProvider;
    private Process provider;
    private int port;
    private final Map<Integer, Long> heartbeatsBySecond = new ConcurrentHashMap<>();
    private final Map<Integer, Integer> providerConnectionsBySecond = new ConcurrentHashMap<>();
    private volatile long start;
    private volatile long providerReadyNanos;

    private C10kExperiment(Options options) {
        this.options = options;
        this.scenario = options.scenario;
        this.dubboConsumers = options.consumer == Side.DUBBO;
        this.dubboProvider = options.provider == Side.DUBBO;
        this.connections = options.connections;
        this.rate = options.rate;
        this.heartbeatMillis = options.heartbeatMillis;
        this.jitter = options.jitter;
        this.seconds = options.seconds;
        this.eventAt = options.eventAt;
    }

    public static void main(String[] argv) {
        System.exit(commandLine().execute(argv));
    }

    /** The command line {@link #main} parses and runs. */
    public static CommandLine commandLine() {
        return Cli.of(new Options());
    }

    /**
     * Runs one experiment with {@code args} as the command line gives them ({@code "rate=16"}) and writes its
     * files; the provider process is gone when this returns. A bad flag throws the parse's exception.
     */
    static void run(String... args) throws Exception {
        CommandLine cli = commandLine();
        cli.parseArgs(args);
        new C10kExperiment(cli.<Options>getCommand().checked()).run();
    }

    /** One second of the run. */
    private static final class Second {
        final Latencies latencies = new Latencies();
        final AtomicLong failed = new AtomicLong();
        volatile int ready;
    }

    private void run() throws Exception {
        startProvider(0);
        try {
            drive();
        } finally {
            provider.destroyForcibly().waitFor();
        }
    }

    private void drive() throws Exception {
        InetSocketAddress address = new InetSocketAddress("127.0.0.1", port);
        long openStart = System.nanoTime();
        try (C10kConsumers consumers = dubboConsumers
                ? DubboC10kConsumers.open(address, connections, heartbeatMillis)
                : FerryC10kConsumers.open(address, connections, heartbeatMillis, jitter)) {
            measure(consumers, openStart);
        }
    }

    private void measure(C10kConsumers consumers, long openStart) throws Exception {
        System.out.printf("%d connections ready after %d ms%n", connections,
                TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - openStart));

        Second[] perSecond = new Second[seconds];
        Arrays.setAll(perSecond, i -> new Second());
        start = System.nanoTime();
        long intervalNanos = TimeUnit.SECONDS.toNanos(1) / rate;
        long nextCall = start;
        int turn = 0;
        int lastSampled = -1;
        while (true) {
            long now = System.nanoTime();
            int second = (int) TimeUnit.NANOSECONDS.toSeconds(now - start);
            if (second >= seconds) {
                break;
            }
            if (second != lastSampled) {
                lastSampled = second;
                perSecond[second].ready = consumers.ready();
                applyScenario(second);
            }
            if (now < nextCall) {
                java.util.concurrent.locks.LockSupport.parkNanos(nextCall - now);
                continue;
            }
            nextCall += intervalNanos;
            long sent = System.nanoTime();
            Second bucket = perSecond[second];
            consumers.ping(turn, sent).whenComplete((reply, error) -> {
                if (error == null) {
                    bucket.latencies.record(TimeUnit.NANOSECONDS.toMicros(System.nanoTime() - sent));
                } else {
                    bucket.failed.incrementAndGet();
                }
            });
            turn = (turn + 1) % connections;
        }
        TimeUnit.SECONDS.sleep(3); // let the last calls end (they time out after 2 s at most)
        report(perSecond);
    }

    private void applyScenario(int second) throws Exception {
        if (scenario == Scenario.STALL && second == eventAt) {
            signal("STOP");
        } else if (scenario == Scenario.STALL && second == eventAt + 6) {
            signal("CONT");
        } else if (scenario == Scenario.RESTART && second == eventAt) {
            provider.destroyForcibly().waitFor();
        } else if (scenario == Scenario.RESTART && second == eventAt + 5) {
            new Thread(() -> {
                try {
                    startProvider(port);
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            }, "restart-provider").start();
        }
    }

    private void signal(String name) throws Exception {
        new ProcessBuilder("kill", "-" + name, String.valueOf(provider.pid())).inheritIO().start().waitFor();
    }

    private void startProvider(int wantedPort) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        // Dubbo cannot be asked for port 0: the first start picks a free port for it
        int portToUse = dubboProvider && wantedPort == 0 ? freePort() : wantedPort;
        provider = new ProcessBuilder(java, "-Xmx2g", "-Ddubbo.application.logger=slf4j", "-cp",
                System.getProperty("java.class.path"),
                (dubboProvider ? C10kDubboProvider.class : C10kProvider.class).getName(), String.valueOf(portToUse),
                String.valueOf(heartbeatMillis)).redirectErrorStream(true).start();
        BufferedReader out = new BufferedReader(new InputStreamReader(provider.getInputStream(),
                StandardCharsets.UTF_8));
        String line;
        while ((line = out.readLine()) != null && !line.startsWith("READY ")) {
            System.out.println("provider: " + line);
        }
        if (line == null) {
            throw new IllegalStateException("the provider exited before it was ready");
        }
        port = Integer.parseInt(line.substring(6).trim());
        providerReadyNanos = System.nanoTime();
        Thread reader = new Thread(() -> {
            try {
                String l;
                while ((l = out.readLine()) != null) {
                    if (l.startsWith("HB ") && start > 0) {
                        int second = (int) TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start);
                        String[] fields = l.split(" ");
                        heartbeatsBySecond.merge(second, Long.parseLong(fields[1]), Long::sum);
                        providerConnectionsBySecond.put(second, Integer.parseInt(fields[2]));
                    }
                }
            } catch (IOException ignored) {
                // the provider went away
            }
        }, "provider-output");
        reader.setDaemon(true);
        reader.start();
    }

    private static int freePort() throws IOException {
        try (java.net.ServerSocket socket = new java.net.ServerSocket(0, 1,
                java.net.InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    private void report(Second[] perSecond) throws IOException {
        String name = options.out != null ? options.out : "rpc-benchmark/results/c10k-" + scenario;
        Path csv = Path.of(name + ".csv");
        Files.createDirectories(csv.toAbsolutePath().getParent());
        List<long[]> rows = new ArrayList<>();
        try (PrintWriter w = new PrintWriter(Files.newBufferedWriter(csv))) {
            w.println("second,calls_ok,calls_failed,p50_us,p99_us,heartbeats,ready_connections");
            for (int s = 0; s < perSecond.length; s++) {
                Latencies latencies = perSecond[s].latencies;
                long ok = latencies.count();
                long p50 = latencies.percentile(50);
                long p99 = latencies.percentile(99);
                long hb = heartbeatsBySecond.getOrDefault(s, 0L);
                // Dubbo's consumers cannot tell which connections are up: the provider's count stands in
                int ready = perSecond[s].ready >= 0 ? perSecond[s].ready
                        : providerConnectionsBySecond.getOrDefault(s, 0);
                rows.add(new long[] {s, ok, perSecond[s].failed.get(), p50, p99, hb, ready});
                w.printf("%d,%d,%d,%d,%d,%d,%d%n", s, ok, perSecond[s].failed.get(), p50, p99, hb, ready);
            }
        }
        String summary = summary(rows);
        Files.writeString(Path.of(name + ".md"), summary);
        System.out.println(Files.readString(csv));
        System.out.println(summary);
    }

    private String summary(List<long[]> rows) {
        StringBuilder sb = new StringBuilder();
        sb.append("# C10K ").append(scenario).append(", ").append(options.provider)
                .append(" provider, ").append(dubboConsumers ? "dubbo" : "ferry").append(" consumers: ")
                .append(connections).append(" connections, ").append(rate).append(" calls/s, heartbeat ")
                .append(heartbeatMillis).append(" ms, ")
                .append(dubboConsumers ? "Dubbo's fixed heartbeat timers" : "jitter " + jitter).append("\n\n");
        if (dubboConsumers) {
            sb.append("Ready connections: the provider's count of open connections (Dubbo's consumers do not say "
                    + "which of theirs are up)\n\n");
        }
        int from = scenario == Scenario.STEADY ? 10 : eventAt + 6 + (int) (2 * heartbeatMillis / 1000);
        List<long[]> window = rows.subList(Math.min(from, rows.size()), rows.size());
        double meanHb = window.stream().mapToLong(r -> r[5]).average().orElse(0);
        long maxHb = window.stream().mapToLong(r -> r[5]).max().orElse(0);
        if (dubboProvider) {
            sb.append("Heartbeats per second: not counted (Dubbo's provider does not report them)\n\n");
        } else {
            sb.append(String.format("Heartbeats per second from second %d on: mean %.0f, max %d (max/mean %.1f)%n%n",
                    from, meanHb, maxHb, meanHb == 0 ? 0 : maxHb / meanHb));
        }
        // "heartbeat seconds": the fifth of the seconds with the most heartbeats, against the rest
        List<long[]> byHeartbeats = new ArrayList<>(window);
        byHeartbeats.sort((a, b) -> Long.compare(b[5], a[5]));
        int busiest = Math.max(1, byHeartbeats.size() / 5);
        List<long[]> bursts = byHeartbeats.subList(0, Math.min(busiest, byHeartbeats.size()));
        List<long[]> quiet = byHeartbeats.subList(Math.min(busiest, byHeartbeats.size()), byHeartbeats.size());
        sb.append(String.format("p99 in the fifth of the seconds with the most heartbeats: %s; in the others: %s%n%n",
                medianOf(bursts, 4), medianOf(quiet, 4)));
        long failed = rows.stream().mapToLong(r -> r[2]).sum();
        sb.append("Failed calls: ").append(failed).append("\n\n");
        if (scenario == Scenario.RESTART) {
            int readySecond = (int) TimeUnit.NANOSECONDS.toSeconds(providerReadyNanos - start);
            long firstOk = rows.stream().filter(r -> r[0] > eventAt && r[1] > 0).mapToLong(r -> r[0]).findFirst()
                    .orElse(-1);
            long allReady = rows.stream().filter(r -> r[0] > readySecond && r[6] >= connections).mapToLong(r -> r[0])
                    .findFirst().orElse(-1);
            long failedAfterReady = rows.stream().filter(r -> r[0] > readySecond).mapToLong(r -> r[2]).sum();
            sb.append(String.format("Provider killed at second %d, ready again at second %d; first successful "
                            + "call in second %d; all %d connections ready in second %d; calls failed after the "
                            + "provider was ready: %d%n", eventAt, readySecond, firstOk, connections, allReady,
                    failedAfterReady));
        }
        return sb.toString();
    }

    private static String medianOf(List<long[]> rows, int column) {
        if (rows.isEmpty()) {
            return "n/a";
        }
        long[] values = rows.stream().mapToLong(r -> r[column]).sorted().toArray();
        return (values[values.length / 2] / 1000.0) + " ms (median over " + values.length + " s)";
    }
}
