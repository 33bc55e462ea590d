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
import java.util.Set;
import java.util.function.ToDoubleFunction;

/**
 * The suite's report: for each benchmark and system the median over rounds of every figure, the ratios Ferry /
 * best Dubbo and Ferry / echo ceiling, as Markdown, CSV (every round) and a PNG of throughput.
 */
public final class SuiteReport {
    private static final String FERRY = "ferry";
    private static final List<String> DUBBOS = List.of("dubbo", "dubbo-fastjson2");
    private static final String ECHO = "echo";

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
        List<String> workload = benchmarks(false);
        md.append("## Blocking callers\n\nEach cell: ops/s · p99 µs · CPU µs per call (both JVMs).\n\n");
        md.append("| method |");
        systems.forEach(s -> md.append(' ').append(s).append(" |"));
        md.append(" Ferry / best Dubbo ops/s | Ferry / best Dubbo p99 | Ferry / echo ops/s | Ferry / echo CPU |")
                .append("\n|---|");
        systems.forEach(s -> md.append("---:|"));
        md.append("---:|---:|---:|---:|\n");
        for (String b : workload) {
            md.append("| ").append(b).append(" |");
            for (String s : systems) {
                md.append(' ').append(num(median(b, s, Measurement::opsPerSecond), 0)).append(" · ")
                        .append(num(median(b, s, Measurement::p99), 0)).append(" · ")
                        .append(num(median(b, s, Measurement::cpuUsPerOp), 1)).append(" |");
            }
            String dubbo = bestDubbo(b);
            md.append(' ').append(ratio(b, FERRY, dubbo, Measurement::opsPerSecond)).append(" | ")
                    .append(ratio(b, FERRY, dubbo, Measurement::p99)).append(" | ")
                    .append(ratio(b, FERRY, ECHO, Measurement::opsPerSecond)).append(" | ")
                    .append(ratio(b, FERRY, ECHO, Measurement::cpuUsPerOp)).append(" |\n");
        }
        List<String> async = benchmarks(true);
        if (!async.isEmpty()) {
            md.append("\n## Asynchronous callers\n\n`async w=N`: 4 threads keep N getUser calls in flight through "
                    + "futures. `pipelined w=N`: the echo's event loop keeps N in flight itself (the ceiling). "
                    + "Each cell: ops/s · CPU µs per call.\n\n| window |");
            systems.forEach(s -> md.append(' ').append(s).append(" |"));
            md.append(" Ferry / best Dubbo | Ferry / pipelined echo |\n|---|");
            systems.forEach(s -> md.append("---:|"));
            md.append("---:|---:|\n");
            for (String window : windows(async)) {
                String mine = "async w=" + window;
                String ceiling = "pipelined w=" + window;
                md.append("| ").append(window).append(" |");
                for (String s : systems) {
                    String b = s.equals(ECHO) ? ceiling : mine;
                    md.append(' ').append(num(median(b, s, Measurement::opsPerSecond), 0)).append(" · ")
                            .append(num(median(b, s, Measurement::cpuUsPerOp), 1)).append(" |");
                }
                String dubbo = bestDubbo(mine);
                md.append(' ').append(ratio(mine, FERRY, dubbo, Measurement::opsPerSecond)).append(" | ")
                        .append(fmt(median(mine, FERRY, Measurement::opsPerSecond)
                                / median(ceiling, ECHO, Measurement::opsPerSecond))).append(" |\n");
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
