package io.ferry.rpc.benchmark.suite;

import io.ferry.rpc.benchmark.suite.jmh.AsyncBenchmark;
import io.ferry.rpc.benchmark.suite.jmh.PipelinedEchoBenchmark;
import io.ferry.rpc.benchmark.suite.jmh.ProcCpuProfiler;
import io.ferry.rpc.benchmark.suite.jmh.UserServiceBenchmark;
import io.ferry.rpc.benchmark.suite.systems.Consumer;
import io.ferry.rpc.benchmark.suite.systems.Systems;
import io.ferry.rpc.benchmark.suite.systems.Tuning;
import io.ferry.rpc.benchmark.suite.systems.Variant;
import io.ferry.rpc.benchmark.suite.workload.UserService;
import io.ferry.rpc.benchmark.suite.workload.Users;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import org.openjdk.jmh.runner.options.VerboseMode;
import org.openjdk.jmh.util.Statistics;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * Runs the workload on every system, one provider JVM at a time, in rotating order over the profile's rounds, and
 * returns every measurement. The benchmarks run in JMH forks of this JVM's class path, calling the provider on
 * 127.0.0.1.
 */
public final class Suite {
    /** Where a system's provider runs for the suite: started here, or already running elsewhere. */
    public interface Providers {
        ProviderHandle start(String system) throws IOException;
    }

    /** A running provider: its address, and its pid when it runs on this machine (else -1: no CPU figures). */
    public interface ProviderHandle extends AutoCloseable {
        String host();

        int port();

        long pid();

        @Override
        void close() throws InterruptedException;
    }

    private final Profile profile;
    private final List<String> systems;
    private final List<String> properties;
    private final Providers providers;
    private final RunPlan plan;
    private final long started = System.nanoTime();
    /** The planned seconds of the steps run so far, for the time left. */
    private long done;

    /**
     * @param properties system properties (the tuning, {@code -Dbench.ioThreads=1}) for the providers and forks
     */
    public Suite(Profile profile, List<String> systems, List<String> properties, Providers providers) {
        this.profile = profile;
        this.systems = List.copyOf(systems);
        this.properties = List.copyOf(properties);
        this.providers = providers;
        this.plan = new RunPlan(profile, this.systems.size());
    }

    /** Providers in JVMs of their own on this machine, one at a time. */
    public static Providers local(List<String> properties) {
        return system -> new ProviderProcess(system, properties);
    }

    public List<Measurement> run() throws IOException, RunnerException, InterruptedException {
        progress("planned: " + RunPlan.clock(plan.totalSeconds()) + " (" + profile.rounds() + " round(s) × "
                + systems.size() + " system(s) × " + RunPlan.clock(plan.systemSeconds()) + ")");
        Systems.prepareThisJvm(systems); // the warm-up's consumers run here
        List<Measurement> all = new ArrayList<>();
        for (int round = 0; round < profile.rounds(); round++) {
            for (int i = 0; i < systems.size(); i++) {
                String system = systems.get((i + round) % systems.size());
                all.addAll(runSystem(system, round));
            }
        }
        return all;
    }

    /** A line with the time since the run started and the time it has left. */
    private void progress(String line) {
        long seconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - started);
        System.out.printf("[%3d:%02d, %s left] %s%n", seconds / 60, seconds % 60,
                RunPlan.clock(plan.secondsLeft(done, seconds)), line);
    }

    private List<Measurement> runSystem(String system, int round)
            throws IOException, RunnerException, InterruptedException {
        progress("round " + (round + 1) + "/" + profile.rounds() + ": " + system + ": starting its provider");
        try (ProviderHandle provider = providers.start(system)) {
            done += RunPlan.PROVIDER_START_SECONDS;
            warm(system, provider);
            done += profile.providerWarmup();
            Map<String, Measurement> byBenchmark = new LinkedHashMap<>();
            String methods = UserServiceBenchmark.class.getName() + "\\.(" + String.join("|", profile.methods())
                    + ")$";
            for (RunResult r : jmh(system, provider, methods, Mode.Throughput, "workload, throughput")) {
                byBenchmark.put(name(r), throughput(system, round, r));
            }
            if (profile.latency()) {
                for (RunResult r : jmh(system, provider, methods, Mode.SampleTime, "workload, latency")) {
                    byBenchmark.computeIfPresent(name(r), (k, m) -> latency(m, r));
                }
            }
            String async = Variant.parse(system).system().equals("echo") ? PipelinedEchoBenchmark.class.getName()
                    : AsyncBenchmark.class.getName();
            if (!profile.windows().isEmpty()) {
                for (RunResult r : jmh(system, provider, async + "\\.\\w+$", Mode.Throughput,
                        "async, throughput")) {
                    byBenchmark.put(name(r), throughput(system, round, r));
                }
            }
            return new ArrayList<>(byBenchmark.values());
        }
    }

    /** A fresh provider first serves a while, so that its JIT has compiled the hot path before measuring. */
    private void warm(String system, ProviderHandle provider) throws InterruptedException {
        if (profile.providerWarmup() == 0) {
            return;
        }
        progress(system + ": warming the provider for " + profile.providerWarmup() + " s");
        try (Consumer consumer = Systems.consumer(system, provider.host(), provider.port(), Tuning.DEFAULTS)) {
            UserService users = consumer.service();
            long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(profile.providerWarmup());
            ExecutorService callers = Executors.newFixedThreadPool(8);
            for (int t = 0; t < 8; t++) {
                callers.execute(() -> {
                    while (System.nanoTime() < end) {
                        users.existUser("ada1@example.com");
                        users.createUser(Users.user(7));
                        users.getUser(1);
                        users.listUser(1);
                    }
                });
            }
            callers.shutdown();
            if (!callers.awaitTermination(profile.providerWarmup() + 60L, TimeUnit.SECONDS)) {
                throw new IllegalStateException(system + ": warm-up calls did not finish");
            }
        }
    }

    private Collection<RunResult> jmh(String system, ProviderHandle provider, String include, Mode mode,
                                      String what) throws RunnerException {
        progress(system + ": " + what);
        ChainedOptionsBuilder options = new OptionsBuilder().include(include).param("system", system)
                .forks(1).warmupIterations(profile.warmups()).warmupTime(TimeValue.seconds(profile.warmupSeconds()))
                .measurementIterations(profile.measurements())
                .measurementTime(TimeValue.seconds(profile.measureSeconds()))
                .mode(mode).timeUnit(mode == Mode.Throughput ? TimeUnit.SECONDS : TimeUnit.MICROSECONDS)
                .jvmArgsAppend(jvmArgs(system, provider)).shouldFailOnError(true).verbosity(VerboseMode.SILENT);
        if (mode == Mode.Throughput) {
            options.addProfiler(ProcCpuProfiler.class);
        }
        if (!include.startsWith(UserServiceBenchmark.class.getName())) {
            options.param("window", profile.windows().stream().map(String::valueOf).toArray(String[]::new));
        }
        Collection<RunResult> results = new Runner(options.build()).run();
        done += (long) results.size() * plan.forkSeconds();
        return results;
    }

    private String[] jvmArgs(String system, ProviderHandle provider) {
        List<String> args = new ArrayList<>(ProviderProcess.JVM);
        args.addAll(List.of("-Dbench.host=" + provider.host(), "-Dbench.port=" + provider.port(),
                "-Dbench.providerPid=" + provider.pid()));
        args.addAll(properties);
        args.addAll(Systems.jvmOptions(system));
        return args.toArray(String[]::new);
    }

    /** "getUser", "async w=32", "pipelined w=128". */
    private static String name(RunResult r) {
        String method = r.getParams().getBenchmark();
        method = method.substring(method.lastIndexOf('.') + 1);
        String window = r.getParams().getParam("window");
        if (method.equals("getUserAsync")) {
            return "async w=" + window;
        }
        return method.equals("answers") ? "pipelined w=" + window : method;
    }

    private static Measurement throughput(String system, int round, RunResult r) {
        Map<String, Result> secondary = r.getSecondaryResults();
        return Measurement.throughput(system, name(r), round, r.getPrimaryResult().getScore(),
                score(secondary, "cpu"), score(secondary, "ctxsw"));
    }

    private static double score(Map<String, Result> results, String key) {
        Result result = results.get(key);
        return result == null ? Double.NaN : result.getScore();
    }

    private static Measurement latency(Measurement m, RunResult r) {
        Statistics s = r.getPrimaryResult().getStatistics();
        return m.withLatency(s.getPercentile(50), s.getPercentile(90), s.getPercentile(99), s.getPercentile(99.9));
    }
}
