package io.ferry.rpc.benchmark.suite;

import io.ferry.rpc.benchmark.Cli;
import io.ferry.rpc.benchmark.suite.systems.Certificates;
import io.ferry.rpc.benchmark.suite.systems.Provider;
import io.ferry.rpc.benchmark.suite.systems.Systems;
import io.ferry.rpc.benchmark.suite.systems.Tuning;
import io.ferry.rpc.benchmark.suite.systems.Variant;
import io.ferry.rpc.benchmark.suite.workload.Users;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.TypeConversionException;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * The benchmark jar's entry point: {@code server}, {@code client}, {@code suite} and {@code experiment
 * connections|nagle}, each with {@code --help} (every flag, its default and its unit).
 *
 * <pre>
 *   server --system ferry|dubbo|dubbo-fastjson2|grpc|echo|ferry-tls-jdk|ferry-tls-openssl|dubbo-tls|ferry-metrics
 *          |ferry-tracing [--host 0.0.0.0]
 *       [--port 20880]
 *       serves the workload until stopped
 *   client --system S --host H --port P [--profile quick|full]
 *       the workload against a provider elsewhere (run server there); no provider CPU figures
 *   suite [--profile smoke|quick|full] [--systems ferry,dubbo,dubbo-fastjson2,grpc,echo]
 *       [--report suite-&lt;profile&gt;] [--out rpc-benchmark/target/reports | --publish]
 *       [--jvm-arg -Djmh.ignoreLock=true]...
 *       everything on this machine, one provider JVM at a time; writes suite-&lt;profile&gt;.md, .csv and .png into
 *       rpc-benchmark/target/reports, or into the committed rpc-benchmark/results with --publish
 *   experiment connections|nagle [--profile quick] [--systems ferry,dubbo] [--out DIR | --publish] [--jvm-arg OPT]...
 *       a field report's experiment: connections × IO threads, or Nagle and delayed ACK; writes its .md/.csv/.png
 * </pre>
 * A profile's figures can be overridden: {@code --warmups 6 --warmupSeconds 5 --measurements 3 --measureSeconds 8},
 * and for {@code suite} and {@code client} also {@code --rounds 3 --providerWarmup 20 --methods getUser,listUser
 * --windows 32 --latency false} ({@code experiment connections} takes {@code --providerWarmup}).
 * Tuning for experiments goes in system properties: {@code -Dbench.ioThreads}, {@code -Dbench.connections},
 * {@code -Dbench.tcpNoDelay}.
 *
 * <p>The TLS systems ({@code --systems ferry,ferry-tls-jdk,ferry-tls-openssl,dubbo-tls --report suite-tls}) use
 * certificates the suite makes at run time for 127.0.0.1, so they run on one machine ({@code -Dbench.tlsDir} hands a
 * {@code server} and a {@code client} the same directory).
 */
@Command(name = "Bench", synopsisSubcommandLabel = "COMMAND", description = {
        "The benchmark jar's entry point: Ferry beside Apache Dubbo 3.3.6, gRPC-java and the raw Netty echo "
                + "ceiling.",
        "Tuning goes in system properties, passed on to providers and JMH forks: -Dbench.ioThreads, "
                + "-Dbench.connections, -Dbench.tcpNoDelay, and Ferry's own -Dferry.* overrides."},
        subcommands = {Bench.Server.class, Bench.Client.class, Bench.SuiteCommand.class, Bench.Experiment.class})
public final class Bench {
    @Mixin
    private Cli.HelpOption help;

    private Bench() {
    }

    public static void main(String[] args) {
        System.exit(commandLine().execute(args));
    }

    /** The whole command line, each command's usage text complete with its profiles. */
    public static CommandLine commandLine() {
        CommandLine cli = Cli.of(new Bench());
        addProfileFooters(cli);
        return cli;
    }

    private static void addProfileFooters(CommandLine cli) {
        CommandSpec spec = cli.getCommandSpec();
        if (spec.findOption("--profile") != null) {
            spec.usageMessage().footer(ProfileOptions.footer(spec.findOption("--rounds") != null));
        }
        cli.getSubcommands().values().forEach(Bench::addProfileFooters);
    }

    private static final String SYSTEM = "ferry, dubbo, dubbo-fastjson2, grpc or echo, or with one-way TLS "
            + "ferry-tls-jdk, ferry-tls-openssl or dubbo-tls, or observing its calls ferry-metrics or ferry-tracing "
            + "(with Micrometer on the class path: suite.sh adds it for them); Ferry with system properties set in its "
            + "JVMs after @, "
            + "several joined by + (ferry@ferry.protocol.dispatcher=direct)";

    @Command(name = "server", description = "Serves the workload until the process is stopped; prints READY <port> "
            + "once it serves.")
    static final class Server implements Callable<Integer> {
        @Mixin
        private Cli.HelpOption help;

        @Option(names = "--system", defaultValue = "ferry", converter = SystemName.class, paramLabel = "SYSTEM",
                description = "The system that serves: " + SYSTEM + " (default: ${DEFAULT-VALUE}).")
        private String system;

        @Option(names = "--host", defaultValue = "0.0.0.0", paramLabel = "HOST", description = "The address to bind "
                + "(default: ${DEFAULT-VALUE}).")
        private String host;

        @Option(names = "--port", defaultValue = "20880", paramLabel = "PORT", description = "The TCP port to bind "
                + "(default: ${DEFAULT-VALUE}).")
        private int port;

        @Option(names = "--countEvery", defaultValue = "0", paramLabel = "MILLIS", description = "Every so many ms, "
                + "print SERVED <epoch ms> <calls served so far>, for the network experiments' shares; 0 for never "
                + "(default: ${DEFAULT-VALUE}).")
        private long countEvery;

        @Override
        public Integer call() throws InterruptedException {
            Provider provider = Systems.provider(system, host, port, Tuning.fromSystemProperties());
            Runtime.getRuntime().addShutdownHook(new Thread(provider::close));
            if (Systems.isTls(system)) { // for a client's -Dbench.tlsDir
                System.out.println("TLS certificates in " + Certificates.ofThisRun().dir());
            }
            System.out.println("READY " + provider.port());
            System.out.flush();
            if (countEvery <= 0) {
                Thread.currentThread().join(); // until the process is stopped
            }
            while (true) { // a reporting tick until the process is stopped, not a test
                Thread.sleep(countEvery - System.currentTimeMillis() % countEvery);
                System.out.println("SERVED " + System.currentTimeMillis() + " " + Users.SERVED.sum());
                System.out.flush();
            }
        }
    }

    @Command(name = "client", description = "Runs the workload against a provider elsewhere (Bench server there) "
            + "and prints the report; no provider CPU figures.")
    static final class Client implements Callable<Integer> {
        @Spec
        private CommandSpec spec;

        @Mixin
        private Cli.HelpOption help;

        @Option(names = "--system", defaultValue = "ferry", converter = SystemName.class, paramLabel = "SYSTEM",
                description = "The system the provider runs: " + SYSTEM + " (default: ${DEFAULT-VALUE}).")
        private String system;

        @Option(names = "--host", defaultValue = "127.0.0.1", paramLabel = "HOST", description = "The provider's address "
                + "(default: ${DEFAULT-VALUE}).")
        private String host;

        @Option(names = "--port", defaultValue = "20880", paramLabel = "PORT", description = "The provider's TCP port "
                + "(default: ${DEFAULT-VALUE}).")
        private int port;

        @Mixin
        private ProfileOptions profile;

        @Mixin
        private WorkloadOptions workload;

        @Option(names = "--csv", paramLabel = "FILE", description = "Also write the measurements as CSV to this "
                + "file, as the suite's .csv (default: none).")
        private Path csv;

        @Override
        public Integer call() throws Exception {
            Profile p = workload.applyTo(profile.profile());
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
            List<Measurement> results = new Suite(p, List.of(system), tuningProperties(), remote).run();
            System.out.println(new SuiteReport(results).markdown("Ferry benchmark client: " + system + " at " + host
                    + ":" + port, "Bench client " + String.join(" ", Cli.given(spec)), "Provider CPU is not "
                    + "measured from here."));
            if (csv != null) {
                Files.writeString(csv, new SuiteReport(results).csv(), StandardCharsets.UTF_8);
            }
            return 0;
        }
    }

    @Command(name = "suite", description = "Runs everything on this machine, one provider JVM at a time, and writes "
            + "suite-<profile>.md, .csv and .png.")
    static final class SuiteCommand implements Callable<Integer> {
        @Spec
        private CommandSpec spec;

        @Mixin
        private Cli.HelpOption help;

        @Mixin
        private ProfileOptions profile;

        @Mixin
        private WorkloadOptions workload;

        @Option(names = "--systems", defaultValue = Systems.ALL_NAMES, split = ",", converter = SystemName.class,
                paramLabel = "SYSTEM", description = "The systems measured, comma-separated, each " + SYSTEM
                + " (default: ${DEFAULT-VALUE}).")
        private List<String> systems;

        @Mixin
        private ReportOptions report;

        @Mixin
        private JvmOptions jvm;

        @Option(names = "--report", paramLabel = "NAME", description = "The report's file name, without .md, .csv "
                + "or .png, so that a run of some systems keeps the full report (default: suite-<profile>).")
        private String reportName;

        /** The profile named, with the figures given. */
        Profile profile() {
            return workload.applyTo(profile.profile());
        }

        /** Where the report goes: {@code --out}, the committed results with {@code --publish}, else the build's. */
        Path reportDirectory() {
            return report.directory();
        }

        /** The {@code --jvm-arg} options, set in this JVM when they are system properties. */
        List<String> jvmArgs() {
            return jvm.applied();
        }

        /** The command's line as the report quotes it. */
        String command() {
            return String.join(" ", "bash rpc-benchmark/suite.sh", profile().name(),
                    String.join(" ", Cli.given(spec, "--profile"))).strip();
        }

        @Override
        public Integer call() throws Exception {
            Profile p = profile();
            String micrometer = micrometerBesideDubbo(systems);
            if (micrometer != null) {
                System.out.println("WARNING: " + micrometer);
            }
            Path out = reportDirectory();
            List<String> properties = new ArrayList<>(tuningProperties());
            properties.addAll(jvmArgs());
            List<Measurement> results = new Suite(p, systems, properties, Suite.local(properties)).run();
            SuiteReport suiteReport = new SuiteReport(results);
            String name = reportName == null ? "suite-" + p.name() : reportName;
            boolean tls = systems.stream().anyMatch(Systems::isTls);
            boolean observed = systems.stream().anyMatch(Systems::isObserved);
            boolean grpc = systems.stream().anyMatch(s -> Variant.parse(s).system().equals("grpc"));
            String setup = setup(p, tls) + (grpc ? "\n\n" + GRPC_SETUP : "")
                    + (observed ? "\n\n" + OBSERVED_SETUP : "")
                    + (micrometer != null ? "\n\n**" + micrometer + "**" : "");
            Files.createDirectories(out);
            String title = (observed ? "Ferry observing its calls" : "Ferry beside Apache Dubbo 3.3.6"
                    + (grpc ? " and gRPC-java" : "")) + (tls ? ", with TLS" : "") + ": the " + p.name() + " profile";
            Files.writeString(out.resolve(name + ".md"), suiteReport.markdown(title, command(), setup),
                    StandardCharsets.UTF_8);
            Files.writeString(out.resolve(name + ".csv"), suiteReport.csv(), StandardCharsets.UTF_8);
            suiteReport.plot(out.resolve(name + ".png"), "Calls/s with 32 blocking callers (" + p.name()
                    + " profile)");
            System.out.println("wrote " + out.resolve(name + ".md") + ", .csv and .png");
            return 0;
        }
    }

    @Command(name = "experiment", synopsisSubcommandLabel = "connections|nagle", description = "Runs a field "
            + "report's experiment and writes its .md, .csv and .png.",
            subcommands = {Experiment.Connections.class, Experiment.Nagle.class})
    static final class Experiment {
        @Mixin
        private Cli.HelpOption help;

        @Command(name = "connections", description = "getUser and listUser with 1, 2 and 4 connections × 1 and 2 "
                + "IO threads on each side, beside each system's defaults: connections-io.md, .csv and .png.")
        static final class Connections implements Callable<Integer> {
            @Spec
            private CommandSpec spec;

            @Mixin
            private Cli.HelpOption help;

            @Mixin
            private ProfileOptions profile;

            @Option(names = "--providerWarmup", paramLabel = "SECONDS", description = "Load on each fresh provider "
                    + "before its first benchmark, in seconds; 0 for none (default: the profile's).")
            private Integer providerWarmup;

            @Option(names = "--systems", defaultValue = "ferry,dubbo", split = ",", converter = SystemName.class,
                    paramLabel = "SYSTEM", description = "The systems measured, comma-separated, each " + SYSTEM
                    + " (default: ${DEFAULT-VALUE}).")
            private List<String> systems;

            @Mixin
            private ReportOptions report;

            @Mixin
            private JvmOptions jvm;

            @Override
            public Integer call() throws Exception {
                Profile p = profile.profile();
                if (providerWarmup != null) {
                    Cli.atLeast(spec, "--providerWarmup", providerWarmup, 0);
                    p = p.withWorkload(p.rounds(), providerWarmup, p.methods(), p.latency(), p.windows());
                }
                Experiments.connections(p, systems, jvm.applied(), report.directory());
                return 0;
            }
        }

        @Command(name = "nagle", description = "One caller making small calls in sequence, Nagle and delayed ACK "
                + "against Ferry's and Dubbo's defaults: nagle.md, .csv and .png.")
        static final class Nagle implements Callable<Integer> {
            @Mixin
            private Cli.HelpOption help;

            @Mixin
            private ProfileOptions profile;

            @Mixin
            private ReportOptions report;

            @Mixin
            private JvmOptions jvm;

            @Override
            public Integer call() throws Exception {
                Experiments.nagle(profile.profile(), jvm.applied(), report.directory());
                return 0;
            }
        }
    }

    /** A system's name as {@code --system} and {@code --systems} take it, checked before anything runs. */
    static final class SystemName implements ITypeConverter<String> {
        @Override
        public String convert(String name) {
            try {
                String system = Variant.parse(name).system();
                if (!Systems.KNOWN.contains(system)) {
                    throw new TypeConversionException("system: " + system + " (expected: one of "
                            + String.join(", ", Systems.KNOWN) + ")");
                }
                return name;
            } catch (IllegalArgumentException e) {
                throw new TypeConversionException(e.getMessage());
            }
        }
    }

    private static String setup(Profile p, boolean tls) {
        return "Each system's provider runs in a JVM of its own (-Xmx1g) on 127.0.0.1; the callers run in a JMH "
                + "fork; 32 blocking caller threads share one reference; hessian2 unless named; Dubbo with its "
                + "defaults and filter chain, by direct url; echo: raw Netty moving Ferry's exact bytes per call. "
                + "JMH: " + p.warmups() + " × " + p.warmupSeconds() + " s warm-up, " + p.measurements() + " × "
                + p.measureSeconds() + " s measured, 1 fork; " + p.rounds() + " round(s) in rotating order "
                + "(medians); providers warmed " + p.providerWarmup() + " s. CPU from /proc for both JVMs. "
                + "Machine: " + Runtime.getRuntime().availableProcessors() + " cores, JDK "
                + System.getProperty("java.version") + "." + (tls ? "\n\n" + TLS_SETUP : "");
    }

    private static final String GRPC_SETUP = "grpc: gRPC-java 1.85 on its shaded Netty, protobuf-java 4 messages "
            + "generated from the same UserService (user_service.proto: the same fields, dates as int64 ms, a page of "
            + "15), plain-text HTTP/2 on one channel; the same 32 blocking callers (blocking stub) and async windows "
            + "(async stub); handlers and async callbacks on a ForkJoinPool of a thread per core on each side, as "
            + "gRPC's performance advice and its own benchmark servers have it (no direct executor: Ferry and Dubbo "
            + "run requests off their IO threads too). Its consumer maps records to messages and back, which the "
            + "others do not need.";

    private static final String OBSERVED_SETUP = "Observability rows: ferry-metrics times every call on both sides "
            + "in Prometheus's registry (micrometer-registry-prometheus) through Ferry's observation of calls; "
            + "ferry-tracing adds a tracer (OpenTelemetry's SDK behind micrometer-tracing's bridge, W3C context in the "
            + "attachments, every call sampled, spans batched to an exporter that drops them) and keeps the timers. "
            + "Micrometer is on the class path of these runs only.";

    /**
     * Why a run's Dubbo figures would not be Dubbo's usual ones, or null: Dubbo 3.3.6 collects metrics of its own
     * whenever Micrometer is on its class path, configured or not.
     */
    static String micrometerBesideDubbo(List<String> systems) {
        boolean dubbo = systems.stream().anyMatch(s -> Variant.parse(s).system().startsWith("dubbo"));
        try {
            Class.forName("io.micrometer.core.instrument.MeterRegistry", false, Bench.class.getClassLoader());
        } catch (ClassNotFoundException e) {
            return null;
        }
        return dubbo ? "Micrometer is on this run's class path, so Dubbo collects metrics of its own and its rows "
                + "pay for them: run the observability rows apart (suite.sh adds Micrometer only for them)" : null;
    }

    private static final String TLS_SETUP = "TLS rows: one-way TLS (the provider presents a certificate, the "
            + "consumer none), with a CA and an EC P-256 provider certificate for 127.0.0.1 made at run time into a "
            + "temporary directory both JVMs read. ferry-tls-jdk and ferry-tls-openssl: Ferry with the JDK's engine "
            + "and with OpenSSL's (netty-tcnative BoringSSL), TLS 1.3 or 1.2, the consumer checking the provider's "
            + "address. dubbo-tls: Dubbo's defaults but for its SslConfig and the protocol's ssl-enabled; it picks "
            + "OpenSSL itself; its consumer holds a key pair it is never asked for (without one it silently connects "
            + "in plain text) and runs with -Dio.netty.handler.ssl.defaultEndpointVerificationAlgorithm=NONE "
            + "(Netty 4.2 otherwise fails every handshake of Dubbo's consumer: \"Hostname or IP address is "
            + "undefined\"), so it checks no address. Every TLS consumer, before it is measured, makes a call and "
            + "then finds the provider's port refusing a plain-text heartbeat and completing a TLS handshake with "
            + "the run's CA, or the run fails.";

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
