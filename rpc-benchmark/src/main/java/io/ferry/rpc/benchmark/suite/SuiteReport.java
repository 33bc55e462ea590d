package io.ferry.rpc.benchmark.suite;

import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.ToDoubleFunction;

/**
 * The suite's report: for each benchmark and system the median over rounds of every figure, the ratios Ferry /
 * best Dubbo, Ferry / gRPC and Ferry / echo ceiling, as Markdown, CSV (every round) and a PNG of throughput. With
 * the TLS rows, the ratios of Ferry with TLS to Dubbo with TLS and to plain Ferry, and the two TLS targets met or
 * missed; with the observability rows, their cost against plain Ferry and the two targets for it. A ratio appears
 * where both of its systems ran.
 */
public final class SuiteReport {
    private static final String FERRY = "ferry";
    private static final List<String> DUBBOS = List.of("dubbo", "dubbo-fastjson2");
    private static final String ECHO = "echo";
    private static final String GRPC = "grpc";

    private final List<Measurement> all;
    private final Map<String, Map<String, List<Measurement>>> cells = new LinkedHashMap<>();
    private final Set<String> systems = new LinkedHashSet<>();

    public SuiteReport(List<Measurement> all) {
        this.all = List.copyOf(all);
        for (Measurement m : all) {
            systems.add(m.system());
            cells.computeIfAbsent(m.benchmark(), b -> new LinkedHashMap<>())
                    .computeIfAbsent(m.system(), s -> new ArrayList<>()).add(m);
        }
    }

    /** The median over rounds of one figure, NaN when absent. */
    public double median(String benchmark, String system, ToDoubleFunction<Measurement> figure) {
        List<Measurement> rounds = cells.getOrDefault(benchmark, Map.of()).getOrDefault(system, List.of());
        double[] values = rounds.stream().mapToDouble(figure).filter(v -> !Double.isNaN(v)).sorted().toArray();
        if (values.length == 0) {
            return Double.NaN;
        }
        int mid = values.length / 2;
        return values.length % 2 == 1 ? values[mid] : (values[mid - 1] + values[mid]) / 2;
    }

    /** The Dubbo row with the higher median throughput for a benchmark, or null when none ran. */
    String bestDubbo(String benchmark) {
        String best = null;
        for (String dubbo : DUBBOS) {
            double ops = median(benchmark, dubbo, Measurement::opsPerSecond);
            if (!Double.isNaN(ops) && (best == null || ops > median(benchmark, best, Measurement::opsPerSecond))) {
                best = dubbo;
            }
        }
        return best;
    }

    public String markdown(String title, String command, String setup) {
        StringBuilder md = new StringBuilder("# ").append(title).append("\n\n");
        md.append("Command: `").append(command).append("`\n\n").append(setup).append("\n\n");
        List<Column> ratios = blockingRatios();
        md.append("## Blocking callers\n\nEach cell: ops/s · p99 µs · CPU µs per call (both JVMs).\n\n");
        header(md, "method", ratios);
        for (String b : benchmarks(false)) {
            md.append("| ").append(b).append(" |");
            for (String s : systems) {
                md.append(' ').append(num(median(b, s, Measurement::opsPerSecond), 0)).append(" · ")
                        .append(num(median(b, s, Measurement::p99), 0)).append(" · ")
                        .append(num(median(b, s, Measurement::cpuUsPerOp), 1)).append(" |");
            }
            ratios.forEach(c -> md.append(' ').append(c.value().apply(b)).append(" |"));
            md.append('\n');
        }
        List<String> async = benchmarks(true);
        if (!async.isEmpty()) {
            List<Column> asyncRatios = asyncRatios();
            md.append("\n## Asynchronous callers\n\n`async w=N`: 4 threads keep N getUser calls in flight through "
                    + "futures. `pipelined w=N`: the echo's event loop keeps N in flight itself (the ceiling). "
                    + "Each cell: ops/s · CPU µs per call.\n\n");
            header(md, "window", asyncRatios);
            for (String window : windows(async)) {
                String mine = "async w=" + window;
                md.append("| ").append(window).append(" |");
                for (String s : systems) {
                    String b = s.equals(ECHO) ? ceiling(mine) : mine;
                    md.append(' ').append(num(median(b, s, Measurement::opsPerSecond), 0)).append(" · ")
                            .append(num(median(b, s, Measurement::cpuUsPerOp), 1)).append(" |");
                }
                asyncRatios.forEach(c -> md.append(' ').append(c.value().apply(mine)).append(" |"));
                md.append('\n');
            }
        }
        for (String group : List.of(TLS, OBSERVED)) {
            List<String> targets = new ArrayList<>();
            for (Target t : TARGETS) {
                if (t.group().equals(group)) {
                    targetLine(t).ifPresent(targets::add);
                }
            }
            if (!targets.isEmpty()) {
                md.append(group.equals(TLS) ? "\n## The TLS targets\n\nOps/s ratios of medians, blocking methods and "
                        + "async windows alike; JDK and OpenSSL are Ferry's engines.\n\n"
                        : "\n## The observability targets\n\nOps/s ratios of medians to plain Ferry, blocking methods "
                        + "and async windows alike; metrics: every call timed (Prometheus's registry), tracing: "
                        + "timed and traced (a span per call and side, every call sampled).\n\n");
                targets.forEach(line -> md.append("- ").append(line).append('\n'));
            }
        }
        md.append("\n## Every figure\n\nMedians over rounds. Latency in µs (SampleTime); CPU in µs per call and "
                + "context switches per call, consumer and provider JVMs together.\n\n"
                + "| benchmark | system | ops/s | p50 | p90 | p99 | p99.9 | CPU µs | ctx switches |\n"
                + "|---|---|---:|---:|---:|---:|---:|---:|---:|\n");
        for (String b : cells.keySet()) {
            for (String s : cells.get(b).keySet()) {
                md.append("| ").append(b).append(" | ").append(s).append(" | ")
                        .append(num(median(b, s, Measurement::opsPerSecond), 0)).append(" | ")
                        .append(num(median(b, s, Measurement::p50), 0)).append(" | ")
                        .append(num(median(b, s, Measurement::p90), 0)).append(" | ")
                        .append(num(median(b, s, Measurement::p99), 0)).append(" | ")
                        .append(num(median(b, s, Measurement::p999), 0)).append(" | ")
                        .append(num(median(b, s, Measurement::cpuUsPerOp), 1)).append(" | ")
                        .append(num(median(b, s, Measurement::ctxswPerOp), 2)).append(" |\n");
            }
        }
        return md.toString();
    }

    private List<String> benchmarks(boolean async) {
        List<String> names = new ArrayList<>();
        for (String b : cells.keySet()) {
            if (b.contains(" w=") == async) {
                names.add(b);
            }
        }
        return names;
    }

    /** A ratio column of a table: its heading, and its cell for a row's benchmark. */
    private record Column(String heading, Function<String, String> value) {
    }

    /** Ops/s of {@code system} over {@code other}'s, headed {@code heading}; {@code engine} names it in a target. */
    private record Ratio(String system, String other, String heading, String engine) {
    }

    /** What the TLS rows are for: Ferry with TLS against Dubbo with TLS, and against plain Ferry. */
    private static final List<Ratio> TLS_RATIOS = List.of(
            new Ratio("ferry-tls-jdk", "dubbo-tls", "Ferry TLS JDK / Dubbo TLS ops/s", "JDK"),
            new Ratio("ferry-tls-openssl", "dubbo-tls", "Ferry TLS OpenSSL / Dubbo TLS ops/s", "OpenSSL"),
            new Ratio("ferry-tls-jdk", FERRY, "Ferry TLS JDK / Ferry plain ops/s", "JDK"),
            new Ratio("ferry-tls-openssl", FERRY, "Ferry TLS OpenSSL / Ferry plain ops/s", "OpenSSL"));

    /** What the observability rows are for: what observing every call costs against plain Ferry. */
    private static final List<Ratio> OBSERVED_RATIOS = List.of(
            new Ratio("ferry-metrics", FERRY, "Ferry metrics / Ferry plain ops/s", "metrics"),
            new Ratio("ferry-tracing", FERRY, "Ferry tracing / Ferry plain ops/s", "tracing"));

    private static final String TLS = "TLS";
    private static final String OBSERVED = "observability";

    /** A target of an issue (its group's): each ratio at least {@code atLeast} on the benchmarks named. */
    private record Target(String group, String claim, double atLeast, List<Ratio> ratios,
                          Predicate<String> benchmarks) {
    }

    private static final Predicate<String> GET_USER = b -> b.equals("getUser") || b.startsWith("async ");

    private static final List<Target> TARGETS = List.of(
            new Target(TLS, "Ferry TLS ≥ 2× Dubbo TLS", 2.0, TLS_RATIOS.subList(0, 2), b -> true),
            new Target(TLS, "Ferry TLS OpenSSL within 25 % of Ferry plain on getUser (≥ 0.75×)", 0.75,
                    List.of(TLS_RATIOS.get(3)), GET_USER),
            new Target(OBSERVED, "metrics cost ≤ 5 % ops/s on getUser (≥ 0.95×)", 0.95,
                    List.of(OBSERVED_RATIOS.get(0)), GET_USER),
            new Target(OBSERVED, "tracing (with metrics) cost ≤ 10 % ops/s on getUser (≥ 0.90×)", 0.90,
                    List.of(OBSERVED_RATIOS.get(1)), GET_USER));

    private List<Column> blockingRatios() {
        List<Column> columns = new ArrayList<>();
        if (systems.contains(FERRY) && DUBBOS.stream().anyMatch(systems::contains)) {
            columns.add(new Column("Ferry / best Dubbo ops/s",
                    b -> ratio(b, FERRY, bestDubbo(b), Measurement::opsPerSecond)));
            columns.add(new Column("Ferry / best Dubbo p99", b -> ratio(b, FERRY, bestDubbo(b), Measurement::p99)));
        }
        if (systems.contains(FERRY) && systems.contains(GRPC)) {
            columns.add(new Column("Ferry / gRPC ops/s", b -> ratio(b, FERRY, GRPC, Measurement::opsPerSecond)));
            columns.add(new Column("Ferry / gRPC p99", b -> ratio(b, FERRY, GRPC, Measurement::p99)));
        }
        if (systems.contains(FERRY) && systems.contains(ECHO)) {
            columns.add(new Column("Ferry / echo ops/s", b -> ratio(b, FERRY, ECHO, Measurement::opsPerSecond)));
            columns.add(new Column("Ferry / echo CPU", b -> ratio(b, FERRY, ECHO, Measurement::cpuUsPerOp)));
        }
        columns.addAll(pairColumns());
        return columns;
    }

    private List<Column> asyncRatios() {
        List<Column> columns = new ArrayList<>();
        if (systems.contains(FERRY) && DUBBOS.stream().anyMatch(systems::contains)) {
            columns.add(new Column("Ferry / best Dubbo",
                    b -> ratio(b, FERRY, bestDubbo(b), Measurement::opsPerSecond)));
        }
        if (systems.contains(FERRY) && systems.contains(GRPC)) {
            columns.add(new Column("Ferry / gRPC", b -> ratio(b, FERRY, GRPC, Measurement::opsPerSecond)));
        }
        if (systems.contains(FERRY) && systems.contains(ECHO)) {
            columns.add(new Column("Ferry / pipelined echo", b -> fmt(median(b, FERRY, Measurement::opsPerSecond)
                    / median(ceiling(b), ECHO, Measurement::opsPerSecond))));
        }
        columns.addAll(pairColumns());
        return columns;
    }

    /** The TLS and observability ratios whose two systems both ran. */
    private List<Column> pairColumns() {
        List<Column> columns = new ArrayList<>();
        for (Ratio r : java.util.stream.Stream.concat(TLS_RATIOS.stream(), OBSERVED_RATIOS.stream()).toList()) {
            if (systems.contains(r.system()) && systems.contains(r.other())) {
                columns.add(new Column(r.heading(), b -> ratio(b, r.system(), r.other(), Measurement::opsPerSecond)));
            }
        }
        return columns;
    }

    /**
     * "getUser 2.31 JDK · 2.85 OpenSSL; ...; lowest 2.31 (getUser, JDK): met", or empty when no benchmark has both
     * systems of any of its ratios.
     */
    private Optional<String> targetLine(Target target) {
        List<String> values = new ArrayList<>();
        double lowest = Double.NaN;
        String where = "";
        for (String b : cells.keySet()) {
            if (!target.benchmarks().test(b)) {
                continue;
            }
            List<String> parts = new ArrayList<>();
            for (Ratio r : target.ratios()) {
                double v = median(b, r.system(), Measurement::opsPerSecond)
                        / median(b, r.other(), Measurement::opsPerSecond);
                if (Double.isNaN(v) || Double.isInfinite(v)) {
                    continue;
                }
                parts.add(fmt(v) + " " + r.engine());
                if (Double.isNaN(lowest) || v < lowest) {
                    lowest = v;
                    where = b + ", " + r.engine();
                }
            }
            if (!parts.isEmpty()) {
                values.add(b + " " + String.join(" · ", parts));
            }
        }
        if (Double.isNaN(lowest)) {
            return Optional.empty();
        }
        return Optional.of(target.claim() + ": " + String.join("; ", values) + "; lowest " + fmt(lowest) + " ("
                + where + "): " + (lowest >= target.atLeast() ? "met" : "**missed**"));
    }

    private void header(StringBuilder md, String first, List<Column> ratios) {
        md.append("| ").append(first).append(" |");
        systems.forEach(s -> md.append(' ').append(s).append(" |"));
        ratios.forEach(c -> md.append(' ').append(c.heading()).append(" |"));
        md.append("\n|---|");
        systems.forEach(s -> md.append("---:|"));
        ratios.forEach(c -> md.append("---:|"));
        md.append('\n');
    }

    /** The echo's counterpart of an async benchmark: "pipelined w=32" for "async w=32". */
    private static String ceiling(String async) {
        return "pipelined " + async.substring(async.indexOf("w="));
    }

    private static List<String> windows(List<String> async) {
        Set<String> windows = new LinkedHashSet<>();
        async.forEach(b -> windows.add(b.substring(b.indexOf("w=") + 2)));
        return new ArrayList<>(windows);
    }

    private String ratio(String benchmark, String system, String other, ToDoubleFunction<Measurement> figure) {
        return other == null ? "" : fmt(median(benchmark, system, figure) / median(benchmark, other, figure));
    }

    private static String fmt(double ratio) {
        return Double.isNaN(ratio) || Double.isInfinite(ratio) ? "" : String.format(Locale.ROOT, "%.2f", ratio);
    }

    private static String num(double value, int decimals) {
        if (Double.isNaN(value)) {
            return "–";
        }
        return decimals == 0 ? String.format(Locale.ROOT, "%,.0f", value)
                : String.format(Locale.ROOT, "%,." + decimals + "f", value);
    }

    /** Every round's figures, for whoever wants more than medians. */
    public String csv() {
        StringBuilder csv = new StringBuilder("system,benchmark,round,ops_per_s,cpu_us_per_op,ctxsw_per_op,p50_us,"
                + "p90_us,p99_us,p999_us\n");
        for (Measurement m : all) {
            csv.append(String.join(",", m.system(), m.benchmark(), Integer.toString(m.round() + 1),
                    Double.toString(m.opsPerSecond()), Double.toString(m.cpuUsPerOp()),
                    Double.toString(m.ctxswPerOp()), Double.toString(m.p50()), Double.toString(m.p90()),
                    Double.toString(m.p99()), Double.toString(m.p999()))).append('\n');
        }
        return csv.toString();
    }

    /** Median throughput of the blocking workload, by method and system. */
    public void plot(Path png, String title) throws IOException {
        CategoryChart chart = new CategoryChartBuilder().width(1000).height(520).title(title)
                .xAxisTitle("method (32 blocking callers)").yAxisTitle("calls/s").build();
        List<String> workload = benchmarks(false);
        for (String s : systems) {
            List<Double> ops = new ArrayList<>();
            for (String b : workload) {
                double v = median(b, s, Measurement::opsPerSecond);
                ops.add(Double.isNaN(v) ? 0 : v);
            }
            chart.addSeries(s, workload, ops);
        }
        Files.createDirectories(png.toAbsolutePath().getParent());
        BitmapEncoder.saveBitmap(chart, png.toString().replaceAll("\\.png$", ""), BitmapEncoder.BitmapFormat.PNG);
    }
}
