package io.ferry.rpc.benchmark.suite;

import io.ferry.rpc.benchmark.suite.jmh.SingleCallerBenchmark;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import org.openjdk.jmh.runner.options.VerboseMode;
import org.openjdk.jmh.util.Statistics;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The field reports' experiments, each Ferry's default against the setting that reproduces the problem, written
 * as Markdown, CSV and PNG under the results directory with the command that made them.
 */
final class Experiments {
    private Experiments() {
    }

    // ---- field report 4: connections × IO threads

    /**
     * getUser and listUser with 1, 2 and 4 connections × 1 and 2 IO threads on each side (Dubbo's consumer cannot
     * set its IO threads: only its provider's change), beside each system's defaults.
     */
    static void connections(Profile base, List<String> systems, List<String> jvmArgs, Path out) throws Exception {
        Profile profile = base.withWorkload(1, base.providerWarmup(), List.of("getUser", "listUser"), false,
                List.of());
        Map<String, List<Measurement>> rows = new LinkedHashMap<>();
        rows.put("defaults", run(profile, systems, jvmArgs));
        for (int connections : new int[] {1, 2, 4}) {
            for (int ioThreads : new int[] {1, 2}) {
                List<String> properties = new ArrayList<>(jvmArgs);
                properties.addAll(List.of("-Dbench.connections=" + connections, "-Dbench.ioThreads=" + ioThreads));
                rows.put(connections + " × " + ioThreads, run(profile, systems, properties));
            }
        }
        StringBuilder md = new StringBuilder("# Connections × IO threads\n\nCommand: `bash rpc-benchmark/suite.sh "
                + "experiment connections`\n\n32 blocking callers, one reference; connections from the consumer to "
                + "the provider × IO threads on each side (Dubbo: its provider's only; its consumer cannot set "
                + "them). `defaults`: each system's own (Ferry: the shared pool, min(cores + 1, 32) IO threads). "
                + "JMH " + profile.warmups() + " × " + profile.warmupSeconds() + " s warm-up, "
                + profile.measurements() + " × " + profile.measureSeconds() + " s measured. Each cell: calls/s · "
                + "CPU µs per call.\n\n| connections × IO threads |");
        StringBuilder csv = new StringBuilder("setting,system,method,ops_per_s,cpu_us_per_op\n");
        List<String> columns = new ArrayList<>();
        for (String system : systems) {
            for (String method : profile.methods()) {
                columns.add(system + " " + method);
                md.append(' ').append(system).append(' ').append(method).append(" |");
            }
        }
        md.append("\n|---|").append("---:|".repeat(columns.size())).append('\n');
        CategoryChart chart = new CategoryChartBuilder().width(1100).height(520)
                .title("getUser calls/s by connections × IO threads").xAxisTitle("connections × IO threads")
                .yAxisTitle("calls/s").build();
        Map<String, List<Double>> series = new LinkedHashMap<>();
        rows.forEach((setting, results) -> {
            md.append("| ").append(setting).append(" |");
            for (String system : systems) {
                for (String method : profile.methods()) {
                    Measurement m = find(results, system, method);
                    md.append(' ').append(m == null ? "–" : String.format(Locale.ROOT, "%,.0f · %.1f",
                            m.opsPerSecond(), m.cpuUsPerOp())).append(" |");
                    if (m != null) {
                        csv.append(String.join(",", setting, system, method, Double.toString(m.opsPerSecond()),
                                Double.toString(m.cpuUsPerOp()))).append('\n');
                        if (method.equals("getUser")) {
                            series.computeIfAbsent(system, s -> new ArrayList<>()).add(m.opsPerSecond());
                        }
                    }
                }
            }
            md.append('\n');
        });
        List<String> settings = new ArrayList<>(rows.keySet());
        series.forEach((system, values) -> chart.addSeries(system, settings, values));
        write(out, "connections-io", md.toString(), csv.toString(), chart);
    }

    private static List<Measurement> run(Profile profile, List<String> systems, List<String> properties)
            throws Exception {
        System.out.println("== connections × IO threads: " + (properties.isEmpty() ? "defaults" : properties));
        return new Suite(profile, systems, properties, Suite.local(properties)).run();
    }

    private static Measurement find(List<Measurement> results, String system, String benchmark) {
        return results.stream().filter(m -> m.system().equals(system) && m.benchmark().equals(benchmark))
                .findFirst().orElse(null);
    }

    // ---- field report 3: Nagle and delayed ACK

    /** One set-up of the Nagle experiment: which provider, with which provider-side properties. */
    private record Setup(String label, String system, List<String> providerProperties) {
    }

    /**
     * One caller, small calls in sequence: the field report's server (Nagle on, the answer in two writes) against
     * Ferry's default, and the rows between.
     */
    static void nagle(Profile profile, List<String> jvmArgs, Path out) throws Exception {
        List<Setup> setups = List.of(
                new Setup("echo: Nagle on at the provider, each answer in two writes (the field report)", "echo",
                        List.of("-Dbench.tcpNoDelay=false", "-Dbench.splitAnswers=true")),
                new Setup("echo: TCP_NODELAY, each answer in two writes", "echo",
                        List.of("-Dbench.splitAnswers=true")),
                new Setup("Ferry: its default (TCP_NODELAY)", "ferry", List.of()),
                new Setup("Ferry: Nagle on at the provider (tcpNoDelay=false); one write per answer", "ferry",
                        List.of("-Dbench.tcpNoDelay=false")),
                new Setup("Dubbo 3.3.6: its default (TCP_NODELAY)", "dubbo", List.of()));
        StringBuilder md = new StringBuilder("# Nagle and delayed ACK\n\nCommand: `bash rpc-benchmark/suite.sh "
                + "experiment nagle`\n\nOne caller makes existUser calls one after another over loopback (JMH "
                + "SampleTime, " + profile.warmups() + " × " + profile.warmupSeconds() + " s warm-up, "
                + profile.measurements() + " × " + profile.measureSeconds() + " s measured). Latency in µs.\n\n"
                + "| set-up | p50 | p90 | p99 | p99.9 | calls/s |\n|---|---:|---:|---:|---:|---:|\n");
        StringBuilder csv = new StringBuilder("setup,p50_us,p90_us,p99_us,p999_us,ops_per_s\n");
        CategoryChart chart = new CategoryChartBuilder().width(1100).height(520)
                .title("One caller, small calls: p50 and p99 (ms)").xAxisTitle("set-up").yAxisTitle("ms").build();
        List<String> labels = new ArrayList<>();
        List<Double> p50s = new ArrayList<>();
        List<Double> p99s = new ArrayList<>();
        for (Setup setup : setups) {
            System.out.println("== nagle: " + setup.label());
            List<String> providerArgs = new ArrayList<>(jvmArgs);
            providerArgs.addAll(setup.providerProperties());
            try (ProviderProcess provider = new ProviderProcess(setup.system(), providerArgs)) {
                RunResult r = new Runner(new OptionsBuilder()
                        .include(SingleCallerBenchmark.class.getName() + "\\.existUser$")
                        .param("system", setup.system()).forks(1).warmupIterations(profile.warmups())
                        .warmupTime(TimeValue.seconds(profile.warmupSeconds()))
                        .measurementIterations(profile.measurements())
                        .measurementTime(TimeValue.seconds(profile.measureSeconds())).mode(Mode.SampleTime)
                        .timeUnit(TimeUnit.MICROSECONDS).jvmArgsAppend(forkArgs(provider, jvmArgs))
                        .shouldFailOnError(true).verbosity(VerboseMode.SILENT).build()).runSingle();
                Statistics s = r.getPrimaryResult().getStatistics();
                double ops = s.getN() / (double) (profile.measurements() * profile.measureSeconds());
                md.append(String.format(Locale.ROOT, "| %s | %,.0f | %,.0f | %,.0f | %,.0f | %,.0f |%n",
                        setup.label(), s.getPercentile(50), s.getPercentile(90), s.getPercentile(99),
                        s.getPercentile(99.9), ops));
                csv.append(String.format(Locale.ROOT, "\"%s\",%f,%f,%f,%f,%f%n", setup.label(), s.getPercentile(50),
                        s.getPercentile(90), s.getPercentile(99), s.getPercentile(99.9), ops));
                labels.add(setup.system() + " " + (labels.size() + 1));
                p50s.add(s.getPercentile(50) / 1000);
                p99s.add(s.getPercentile(99) / 1000);
            }
        }
        md.append("\nThe bars in `nagle.png` are numbered as the rows above.\n");
        chart.addSeries("p50", labels, p50s);
        chart.addSeries("p99", labels, p99s);
        write(out, "nagle", md.toString(), csv.toString(), chart);
    }

    private static String[] forkArgs(ProviderProcess provider, List<String> jvmArgs) {
        List<String> args = new ArrayList<>(ProviderProcess.JVM);
        args.addAll(List.of("-Dbench.host=" + provider.host(), "-Dbench.port=" + provider.port(),
                "-Dbench.providerPid=" + provider.pid()));
        args.addAll(jvmArgs);
        return args.toArray(String[]::new);
    }

    private static void write(Path out, String name, String md, String csv, CategoryChart chart) throws Exception {
        Files.createDirectories(out);
        Files.writeString(out.resolve(name + ".md"), md, StandardCharsets.UTF_8);
        Files.writeString(out.resolve(name + ".csv"), csv, StandardCharsets.UTF_8);
        BitmapEncoder.saveBitmap(chart, out.resolve(name).toString(), BitmapEncoder.BitmapFormat.PNG);
        System.out.println("wrote " + out.resolve(name + ".md") + ", .csv and .png");
    }
}
