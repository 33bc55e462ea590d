package io.ferry.rpc.benchmark.suite;

import io.ferry.rpc.benchmark.suite.systems.Provider;
import io.ferry.rpc.benchmark.suite.systems.Systems;
import io.ferry.rpc.benchmark.suite.systems.Tuning;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The benchmark jar's entry point.
 *
 * <pre>
 *   server --system ferry|dubbo|dubbo-fastjson2|echo [--host 0.0.0.0] [--port 20880]
 *       serves the workload until stopped
 *   client --system S --host H --port P [--profile quick|full]
 *       the workload against a provider elsewhere (run server there); no provider CPU figures
 *   suite [--profile smoke|quick|full] [--systems ferry,dubbo,dubbo-fastjson2,echo] [--out rpc-benchmark/results]
 *       everything on this machine, one provider JVM at a time; writes suite-&lt;profile&gt;.md, .csv and .png
 *   experiment connections|nagle [--profile quick] [--systems ferry,dubbo]
 *       a field report's experiment: connections × IO threads, or Nagle and delayed ACK; writes its .md/.csv/.png
 * </pre>
 * A profile's figures can be overridden: {@code --warmups 6 --warmupSeconds 5 --measurements 3 --measureSeconds 8
 * --rounds 3 --providerWarmup 20 --methods getUser,listUser --windows 32 --latency false}.
 * Tuning for experiments goes in system properties: {@code -Dbench.ioThreads}, {@code -Dbench.connections},
 * {@code -Dbench.tcpNoDelay}.
 */
public final class Bench {
    private Bench() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length == 0) {
            usage("a command");
        }
        Map<String, String> flags = args[0].equals("experiment") ? Map.of()
                : flags(Arrays.copyOfRange(args, 1, args.length));
        switch (args[0]) {
            case "server" -> server(flags);
            case "client" -> client(flags);
            case "suite" -> suite(flags);
            case "experiment" -> experiment(args.length > 1 ? args[1] : "", flags(Arrays.copyOfRange(args,
                    Math.min(2, args.length), args.length)));
            default -> usage("server, client, suite or experiment, not " + args[0]);
        }
    }

    private static void usage(String expected) {
        System.err.println("usage: Bench server|client|suite [--flag value ...] (expected: " + expected + ")");
        System.exit(2);
    }

    private static Map<String, String> flags(String[] args) {
        Map<String, String> flags = new LinkedHashMap<>(); // in the order given, for the reports' command lines
        for (int i = 0; i < args.length; i++) {
            if (!args[i].startsWith("--") || i + 1 == args.length) {
                usage("--name value pairs, not " + args[i]);
            }
            flags.put(args[i].substring(2), args[++i]);
        }
        return flags;
    }

    private static void server(Map<String, String> flags) throws InterruptedException {
        String system = flags.getOrDefault("system", "ferry");
        Provider provider = Systems.provider(system, flags.getOrDefault("host", "0.0.0.0"),
                Integer.parseInt(flags.getOrDefault("port", "20880")), Tuning.fromSystemProperties());
        Runtime.getRuntime().addShutdownHook(new Thread(provider::close));
        System.out.println("READY " + provider.port());
        System.out.flush();
        Thread.currentThread().join(); // until the process is stopped
    }

    private static void client(Map<String, String> flags) throws Exception {
        String system = flags.getOrDefault("system", "ferry");
        String host = flags.getOrDefault("host", "127.0.0.1");
        int port = Integer.parseInt(flags.getOrDefault("port", "20880"));
        Profile profile = Profile.named(flags.getOrDefault("profile", "quick")).with(flags);
        Suite.Providers remote = s -> new Suite.ProviderHandle() {
            @Override
            public String host() {
                return host;
            }

            @Override
            public int port() {
                return port;
            }

            @Override
            public long pid() {
                return -1;
            }

            @Override
            public void close() {
            }
        };
        List<Measurement> results = new Suite(profile, List.of(system), tuningProperties(), remote).run();
        System.out.println(new SuiteReport(results).markdown("Ferry benchmark client: " + system + " at " + host
                + ":" + port, "Bench client " + String.join(" ", flagsText(flags)), "Provider CPU is not measured "
                + "from here."));
    }

    private static List<String> flagsText(Map<String, String> flags) {
        List<String> text = new ArrayList<>();
        flags.forEach((k, v) -> text.add("--" + k + " " + v));
        return text;
    }

    private static void suite(Map<String, String> flags) throws Exception {
        Profile profile = Profile.named(flags.getOrDefault("profile", "quick")).with(flags);
        List<String> systems = Arrays.asList(flags.getOrDefault("systems", String.join(",", Systems.ALL))
                .split(","));
        Path out = Path.of(flags.getOrDefault("out", "rpc-benchmark/results"));
        List<Measurement> results = new Suite(profile, systems, tuningProperties(),
                Suite.local(tuningProperties())).run();
        SuiteReport report = new SuiteReport(results);
        String name = "suite-" + profile.name();
        Map<String, String> given = new LinkedHashMap<>(flags);
        given.remove("profile");
        String command = String.join(" ", "bash rpc-benchmark/suite.sh", profile.name(),
                String.join(" ", flagsText(given))).strip();
        Files.createDirectories(out);
        Files.writeString(out.resolve(name + ".md"), report.markdown("Ferry beside Apache Dubbo 3.3.6: the "
                + profile.name() + " profile", command, setup(profile)), StandardCharsets.UTF_8);
        Files.writeString(out.resolve(name + ".csv"), report.csv(), StandardCharsets.UTF_8);
        report.plot(out.resolve(name + ".png"), "Calls/s with 32 blocking callers (" + profile.name() + " profile)");
        System.out.println("wrote " + out.resolve(name + ".md") + ", .csv and .png");
    }

    private static void experiment(String name, Map<String, String> flags) throws Exception {
        Profile profile = Profile.named(flags.getOrDefault("profile", "quick")).with(flags);
        Path out = Path.of(flags.getOrDefault("out", "rpc-benchmark/results"));
        switch (name) {
            case "connections" -> Experiments.connections(profile, Arrays.asList(flags.getOrDefault("systems",
                    "ferry,dubbo").split(",")), out);
            case "nagle" -> Experiments.nagle(profile, out);
            default -> usage("experiment connections or experiment nagle, not " + name);
        }
    }

    private static String setup(Profile p) {
        return "Each system's provider runs in a JVM of its own (-Xmx1g) on 127.0.0.1; the callers run in a JMH "
                + "fork; 32 blocking caller threads share one reference; hessian2 unless named; Dubbo with its "
                + "defaults and filter chain, by direct url; echo: raw Netty moving Ferry's exact bytes per call. "
                + "JMH: " + p.warmups() + " × " + p.warmupSeconds() + " s warm-up, " + p.measurements() + " × "
                + p.measureSeconds() + " s measured, 1 fork; " + p.rounds() + " round(s) in rotating order "
                + "(medians); providers warmed " + p.providerWarmup() + " s. CPU from /proc for both JVMs. "
                + "Machine: " + Runtime.getRuntime().availableProcessors() + " cores, JDK "
                + System.getProperty("java.version") + ".";
    }

    /**
     * The tuning system properties this JVM was given, passed on to providers and forks: the experiments'
     * {@code bench.*}, and Ferry's own {@code ferry.*} overrides ({@code -Dferry.protocol.dispatcher=direct}).
     */
    private static List<String> tuningProperties() {
        List<String> properties = new ArrayList<>();
        System.getProperties().forEach((k, v) -> {
            if (String.valueOf(k).startsWith("bench.") || String.valueOf(k).startsWith("ferry.")) {
                properties.add("-D" + k + "=" + v);
            }
        });
        return properties;
    }
}
