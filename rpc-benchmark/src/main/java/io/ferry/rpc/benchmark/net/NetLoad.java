package io.ferry.rpc.benchmark.net;

import io.ferry.rpc.benchmark.Cli;
import io.ferry.rpc.benchmark.Latencies;
import io.ferry.rpc.benchmark.suite.systems.DubboSystem;
import io.ferry.rpc.benchmark.suite.workload.UserService;
import io.ferry.rpc.config.ApplicationConfig;
import io.ferry.rpc.config.ConsumerConfig;
import io.ferry.rpc.config.Ferry;
import io.ferry.rpc.config.OutlierEjection;
import io.ferry.rpc.config.ReferenceConfig;
import io.ferry.rpc.config.RegistryConfig;
import org.HdrHistogram.Histogram;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;

/**
 * The consumer of the network experiments ({@code rpc-benchmark/netem.sh}): closed-loop callers against the
 * providers a registry lists (Ferry) or a list of direct urls (Dubbo, which balances among them as among registered
 * ones), for a bounded time, running the experiment's network changes at given seconds. Writes one CSV row a second
 * (calls that succeeded and failed in it, and their p50 and p99; the warm-up's seconds numbered below 0) and prints a
 * summary of the measured seconds.
 *
 * <p>A failed call is counted and the caller goes on: at once after a timeout, 1 ms later after a call that failed
 * within a millisecond (no provider to choose), so that failing callers do not take the CPU the others need.
 */
@Command(name = "NetLoad", description = "Closed-loop callers for the network experiments (netem.sh): one CSV row "
        + "a second, and the network's changes run at the seconds given.")
public final class NetLoad implements Callable<Integer> {
    @Spec
    private CommandSpec spec;

    @Mixin
    private Cli.HelpOption help;

    @Option(names = "--system", defaultValue = "ferry", paramLabel = "ferry|dubbo",
            description = "The consumer's system (default: ${DEFAULT-VALUE}).")
    private String system;

    @Option(names = "--registry", paramLabel = "ADDRESS", description = "Ferry: the registry the providers are "
            + "found in, zookeeper://10.77.0.10:2181.")
    private String registry;

    @Option(names = "--urls", split = ",", paramLabel = "HOST:PORT", description = "Dubbo: the providers, called "
            + "through one reference (Dubbo's url list, balanced as registered ones).")
    private List<String> urls = List.of();

    @Option(names = "--loadbalance", paramLabel = "NAME", description = "The balancer by name (default: the "
            + "system's own: Ferry adaptive, Dubbo random).")
    private String loadBalance;

    @Option(names = "--actives", defaultValue = "0", paramLabel = "N", description = "Dubbo: the reference's "
            + "actives (calls in flight per method and provider); besides limiting, it turns on the counting Dubbo's "
            + "leastactive balancer reads, which is off without it; 0 for Dubbo's default, none "
            + "(default: ${DEFAULT-VALUE}).")
    private int actives;

    @Option(names = "--ejection", defaultValue = "true", arity = "1", paramLabel = "true|false",
            description = "Ferry: outlier ejection (default: ${DEFAULT-VALUE}, Ferry's default).")
    private boolean ejection;

    @Option(names = "--method", defaultValue = "getUser", paramLabel = "getUser|listUser",
            description = "The method called (default: ${DEFAULT-VALUE}).")
    private String method;

    @Option(names = "--callers", defaultValue = "32", paramLabel = "N",
            description = "Caller threads (default: ${DEFAULT-VALUE}).")
    private int callers;

    @Option(names = "--timeout", defaultValue = "1000", paramLabel = "MILLIS",
            description = "Each call's timeout (default: ${DEFAULT-VALUE}, Ferry's and Dubbo's default).")
    private long timeoutMillis;

    @Option(names = "--warmup", defaultValue = "5", paramLabel = "SECONDS",
            description = "Calls before second 0, not written (default: ${DEFAULT-VALUE}).")
    private int warmupSeconds;

    @Option(names = "--seconds", defaultValue = "20", paramLabel = "SECONDS",
            description = "Seconds measured (default: ${DEFAULT-VALUE}).")
    private int seconds;

    @Option(names = "--at", paramLabel = "SECOND=COMMAND", description = "At that second of the measured time, "
            + "run the shell command (a network change: netem.sh cut p1), waiting for it; repeatable.")
    private List<String> at = new ArrayList<>();

    @Option(names = "--out", required = true, paramLabel = "FILE", description = "The CSV written.")
    private Path out;

    private NetLoad() {
    }

    public static void main(String[] args) {
        System.exit(commandLine().execute(args));
    }

    /** The command line {@link #main} parses and runs. */
    public static CommandLine commandLine() {
        return Cli.of(new NetLoad());
    }

    /** What the callers record: the current second's latencies and failures, swapped each second. */
    private static final class Second {
        final Latencies latencies = new Latencies();
        final LongAdder failed = new LongAdder();
    }

    @Override
    public Integer call() throws Exception {
        if (!system.equals("ferry") && !system.equals("dubbo")) {
            throw new ParameterException(spec.commandLine(), "--system: " + system + " (expected: ferry or dubbo)");
        }
        if (!method.equals("getUser") && !method.equals("listUser")) {
            throw new ParameterException(spec.commandLine(), "--method: " + method
                    + " (expected: getUser or listUser)");
        }
        Cli.atLeast(spec, "--callers", callers, 1);
        Cli.atLeast(spec, "--seconds", seconds, 1);
        Cli.atLeast(spec, "--warmup", warmupSeconds, 0);
        Cli.atLeast(spec, "--timeout", timeoutMillis, 1);
        Map<Integer, String> events = new TreeMap<>();
        for (String e : at) {
            int eq = e.indexOf('=');
            if (eq <= 0 || !e.substring(0, eq).trim().matches("-?\\d+")) {
                throw new ParameterException(spec.commandLine(), "--at: " + e + " (expected: SECOND=COMMAND)");
            }
            events.put(Integer.parseInt(e.substring(0, eq).trim()), e.substring(eq + 1));
        }
        Consumer consumer = system.equals("dubbo") ? dubbo() : ferry();
        UserService users = consumer.users;
        AtomicReference<Second> current = new AtomicReference<>(new Second());
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(warmupSeconds + seconds) + 200_000_000L;
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < callers; t++) {
            Thread caller = new Thread(() -> {
                while (System.nanoTime() < end) {
                    long start = System.nanoTime();
                    try {
                        if (method.equals("listUser")) {
                            users.listUser(1);
                        } else {
                            users.getUser(1);
                        }
                        // counted in the second it ends in (a second read is never written again)
                        current.get().latencies.record((System.nanoTime() - start) / 1000);
                    } catch (RuntimeException e) {
                        current.get().failed.increment();
                        if (System.nanoTime() - start < 1_000_000L) {
                            pause(); // a call that fails at once (no provider) must not spin the CPU the others need
                        }
                    }
                }
            }, "caller-" + t);
            caller.setDaemon(true);
            caller.start();
            threads.add(caller);
        }
        StringBuilder csv = new StringBuilder("second,epoch_ms,ok,failed,p50_us,p99_us,event\n");
        Histogram all = Latencies.emptyHistogram();
        long failed = 0;
        long tick = System.nanoTime();
        for (int second = -warmupSeconds; second < seconds; second++) {
            String event = events.get(second);
            if (event != null) {
                run(event);
            }
            tick += TimeUnit.SECONDS.toNanos(1);
            TimeUnit.NANOSECONDS.sleep(Math.max(0, tick - System.nanoTime()));
            Second done = current.getAndSet(new Second());
            Thread.sleep(10); // a caller that took the old second just before the swap records into it meanwhile
            Histogram h = done.latencies.histogram();
            long f = done.failed.sum();
            if (second >= 0) {
                all.add(h);
                failed += f;
            }
            { // the warm-up's seconds too, numbered below 0, for what happens from the first call on
                csv.append(String.format(Locale.ROOT, "%d,%d,%d,%d,%d,%d,%s%n", second, System.currentTimeMillis(),
                        h.getTotalCount(), f, Latencies.percentile(h, 50), Latencies.percentile(h, 99),
                        event == null ? "" : '"' + event.replace("\"", "'") + '"'));
            }
            System.out.printf(Locale.ROOT, "[%3d] ok %,d failed %,d p99 %,d us%s%n", second, h.getTotalCount(), f,
                    Latencies.percentile(h, 99), event == null ? "" : "  <- " + event);
        }
        for (Thread t : threads) {
            t.join(TimeUnit.SECONDS.toMillis(2) + timeoutMillis);
        }
        Files.writeString(out, csv.toString(), StandardCharsets.UTF_8);
        System.out.printf(Locale.ROOT, "SUMMARY ok=%d failed=%d p50_us=%d p99_us=%d p999_us=%d%n",
                all.getTotalCount(), failed, Latencies.percentile(all, 50), Latencies.percentile(all, 99),
                Latencies.percentile(all, 99.9));
        consumer.close.run();
        return 0;
    }

    private static void pause() {
        try {
            Thread.sleep(1);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void run(String command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder("bash", "-c", command).inheritIO().start();
        if (!p.waitFor(20, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IllegalStateException("network change did not finish in 20 s: " + command);
        }
    }

    private record Consumer(UserService users, Runnable close) {
    }

    private Consumer ferry() {
        if (registry == null) {
            throw new ParameterException(spec.commandLine(), "--registry: none (expected: the registry's address "
                    + "for ferry)");
        }
        ConsumerConfig.Builder consumer = ConsumerConfig.builder().timeout(Duration.ofMillis(timeoutMillis));
        if (loadBalance != null) {
            consumer.loadBalance(loadBalance);
        }
        if (!ejection) {
            consumer.outlierEjection(OutlierEjection.disabled());
        }
        Ferry ferry = Ferry.builder().shutdownHook(false).application(ApplicationConfig.of("net-consumer"))
                .registry(RegistryConfig.of(registry, null, null, RegistryConfig.NO_CACHE_FILE))
                .consumer(consumer.build()).build();
        // not check: on a loaded machine behind user-space links the first connections can take longer than the
        // 3 s check, and the warm-up is there for them anyway (a call that fails at once pauses, below)
        UserService users = ferry.reference(ReferenceConfig.builder(UserService.class).check(false).build());
        return new Consumer(users, ferry::close);
    }

    private Consumer dubbo() {
        if (urls.isEmpty()) {
            throw new ParameterException(spec.commandLine(), "--urls: none (expected: the providers' addresses for "
                    + "dubbo)");
        }
        DubboSystem.keepOnLoopback(); // Dubbo's settings for the suite: no QoS port, its log through slf4j
        org.apache.dubbo.config.ReferenceConfig<UserService> reference =
                new org.apache.dubbo.config.ReferenceConfig<>();
        reference.setInterface(UserService.class);
        reference.setUrl(String.join(";", urls.stream().map(u -> "dubbo://" + u + "?serialization=hessian2")
                .toList()));
        reference.setTimeout((int) timeoutMillis);
        if (loadBalance != null) {
            reference.setLoadbalance(loadBalance);
        }
        if (actives > 0) {
            reference.setActives(actives);
        }
        org.apache.dubbo.config.bootstrap.DubboBootstrap dubbo =
                org.apache.dubbo.config.bootstrap.DubboBootstrap.newInstance();
        org.apache.dubbo.config.ApplicationConfig application =
                new org.apache.dubbo.config.ApplicationConfig("net-consumer");
        application.setQosEnable(false);
        dubbo.application(application).reference(reference).start();
        return new Consumer(reference.get(), dubbo::destroy);
    }
}
