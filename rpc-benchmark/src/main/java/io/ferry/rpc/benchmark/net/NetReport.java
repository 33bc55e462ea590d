package io.ferry.rpc.benchmark.net;

import io.ferry.rpc.benchmark.Cli;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.internal.chartpart.Chart;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * Writes a network experiment's results ({@code rpc-benchmark/netem.sh}) from its runs' files: netem-EXPERIMENT.md
 * (the command on top, the set-up, the table), .csv and .png. The runs' files are NetLoad's CSV and log, the
 * providers' logs (their {@code SERVED} lines) and, for {@code rtt}, Bench client's CSV.
 */
@Command(name = "NetReport", description = "Writes netem-<experiment>.md, .csv and .png from the runs of netem.sh.")
public final class NetReport implements Callable<Integer> {
    @Spec
    private CommandSpec spec;

    @Mixin
    private Cli.HelpOption help;

    @Parameters(index = "0", paramLabel = "rtt|balance|loss|partition", description = "The experiment.")
    private String experiment;

    @Option(names = "--runs", required = true, paramLabel = "DIR", description = "The runs' files.")
    private Path runs;

    @Option(names = "--out", required = true, paramLabel = "DIR", description = "Where the results go.")
    private Path out;

    @Option(names = "--command", required = true, paramLabel = "LINE", description = "The command quoted on top.")
    private String command;

    @Option(names = "--backend", defaultValue = "netem", paramLabel = "netem|user", description = "The links' kind.")
    private String backend;

    @Option(names = "--note", defaultValue = "", paramLabel = "TEXT", description = "A line on how the links were made.")
    private String note;

    private NetReport() {
    }

    public static void main(String[] args) {
        System.exit(Cli.of(new NetReport()).execute(args));
    }

    /** The command line {@link #main} parses and runs. */
    public static CommandLine commandLine() {
        return Cli.of(new NetReport());
    }

    @Override
    public Integer call() throws IOException {
        switch (experiment) {
            case "rtt" -> rtt();
            case "balance" -> balance();
            case "loss" -> loss();
            case "partition" -> partition();
            default -> throw new CommandLine.ParameterException(spec.commandLine(), "experiment: " + experiment
                    + " (expected: rtt, balance, loss or partition)");
        }
        return 0;
    }

    private String header(String title) {
        return "# " + title + "\n\nCommand: `" + command.strip() + "`\n\nMade " + Instant.now().toString()
                .substring(0, 16).replace('T', ' ') + " UTC on " + Runtime.getRuntime().availableProcessors()
                + " cores, JDK " + System.getProperty("java.version") + "; one run of each row. Every process (ZooKeeper, "
                + "each provider, the consumer) in a network namespace of its own, each with a link of its own; a "
                + "link's delay, jitter and loss apply to every packet crossing it, both ways. " + note + "\n\n";
    }

    // ---- RTT: Bench client's CSV per round trip and system

    private void rtt() throws IOException {
        Map<Integer, Map<String, Map<String, double[]>>> byRtt = new java.util.TreeMap<>();
        try (var files = Files.list(runs)) {
            for (Path f : files.filter(p -> p.getFileName().toString().matches("rtt-\\d+-\\w+\\.csv")).toList()) {
                String[] name = f.getFileName().toString().replace(".csv", "").split("-");
                int rtt = Integer.parseInt(name[1]);
                for (String line : Files.readAllLines(f).subList(1, Files.readAllLines(f).size())) {
                    String[] c = line.split(",");
                    // system,benchmark,round,ops_per_s,cpu_us_per_op,ctxsw_per_op,p50_us,p90_us,p99_us,p999_us
                    byRtt.computeIfAbsent(rtt, r -> new java.util.TreeMap<>()).computeIfAbsent(c[1],
                            b -> new LinkedHashMap<>()).put(c[0], new double[] {Double.parseDouble(c[3]),
                            Double.parseDouble(c[6]), Double.parseDouble(c[8])});
                }
            }
        }
        StringBuilder md = new StringBuilder(header("Ferry and Dubbo 3.3.6 across a round trip"));
        md.append("One provider (p1) and one consumer (c1); the round trip's added delay is all on p1's link. "
                + "Bench client in c1 against Bench server in p1: 32 blocking callers (getUser, listUser) and 4 "
                + "async callers keeping 32 getUser calls in flight (async w=32), each system with its defaults "
                + "(one connection). JMH 2 × 3 s warm-up, 2 × 3 s measured, provider warmed 10 s; p50/p99 from a "
                + "SampleTime run of the blocking callers. Ferry/Dubbo > 1: Ferry makes more calls; p99 Ferry/Dubbo < 1: "
                + "Ferry's tail is shorter. 32 callers across a round trip of R make at most 32 / R calls a second "
                + "(6,400 at 5 ms), whatever the system.\n\n"
                + "| added RTT | benchmark | Ferry calls/s | Dubbo calls/s | Ferry/Dubbo | Ferry p50 / p99 µs "
                + "| Dubbo p50 / p99 µs | p99 Ferry/Dubbo |\n|---|---|---:|---:|---:|---:|---:|---:|\n");
        StringBuilder csv = new StringBuilder("added_rtt_us,benchmark,system,ops_per_s,p50_us,p99_us\n");
        CategoryChart chart = new CategoryChartBuilder().width(1100).height(520)
                .title("Calls/s across an added round trip: Ferry / Dubbo 3.3.6").xAxisTitle("added RTT, benchmark")
                .yAxisTitle("Ferry calls/s ÷ Dubbo calls/s").build();
        List<String> labels = new ArrayList<>();
        List<Double> ratios = new ArrayList<>();
        byRtt.forEach((rtt, byBenchmark) -> byBenchmark.forEach((benchmark, bySystem) -> {
            double[] f = bySystem.get("ferry");
            double[] d = bySystem.get("dubbo");
            double ratio = f != null && d != null ? f[0] / d[0] : Double.NaN;
            double p99 = f != null && d != null ? f[2] / d[2] : Double.NaN;
            md.append(String.format(Locale.ROOT, "| %s ms | %s | %s | %s | %s | %s | %s | %s |%n", ms(rtt), benchmark,
                    ops(f), ops(d), Double.isNaN(ratio) ? "–" : String.format(Locale.ROOT, "%.2f", ratio),
                    latency(f), latency(d), Double.isNaN(p99) ? "–" : String.format(Locale.ROOT, "%.2f", p99)));
            bySystem.forEach((system, v) -> csv.append(String.format(Locale.ROOT, "%d,%s,%s,%.1f,%.1f,%.1f%n", rtt,
                    benchmark, system, v[0], v[1], v[2])));
            labels.add(ms(rtt) + " ms " + benchmark);
            ratios.add(Double.isNaN(ratio) ? 0 : ratio);
        }));
        chart.getStyler().setXAxisLabelRotation(20);
        chart.addSeries("Ferry / Dubbo", labels, ratios);
        write("netem-rtt", md, csv, chart);
    }

    private static String ms(int micros) {
        return micros % 1000 == 0 ? Integer.toString(micros / 1000) : String.format(Locale.ROOT, "%.1f",
                micros / 1000.0);
    }

    private static String ops(double[] v) {
        return v == null ? "–" : String.format(Locale.ROOT, "%,.0f", v[0]);
    }

    private static String latency(double[] v) {
        return v == null || Double.isNaN(v[1]) ? "–" : String.format(Locale.ROOT, "%,.0f / %,.0f", v[1], v[2]);
    }

    // ---- the runs of NetLoad

    /**
     * One NetLoad run: its measured seconds (second, epoch ms at its end, ok, failed, p50, p99), its warm-up's
     * seconds (numbered below 0) and its summary.
     */
    private record Load(String name, List<long[]> seconds, List<long[]> warmUp, Map<String, Long> summary) {
        static Load read(Path dir, String name) throws IOException {
            List<long[]> seconds = new ArrayList<>();
            List<long[]> warmUp = new ArrayList<>();
            List<String> lines = Files.readAllLines(dir.resolve(name + ".csv"));
            for (String line : lines.subList(1, lines.size())) {
                String[] c = line.split(",", 7);
                long[] row = {Long.parseLong(c[0]), Long.parseLong(c[1]), Long.parseLong(c[2]), Long.parseLong(c[3]),
                        Long.parseLong(c[4]), Long.parseLong(c[5])};
                (row[0] < 0 ? warmUp : seconds).add(row);
            }
            Map<String, Long> summary = new LinkedHashMap<>();
            for (String line : Files.readAllLines(dir.resolve(name + ".log"))) {
                if (line.startsWith("SUMMARY ")) {
                    for (String kv : line.substring(8).split(" ")) {
                        summary.put(kv.substring(0, kv.indexOf('=')), Long.parseLong(kv.substring(kv.indexOf('=') + 1)));
                    }
                }
            }
            return new Load(name, seconds, warmUp, summary);
        }

        double callsPerSecond() {
            return summary.get("ok") / (double) seconds.size();
        }

        long startMillis() {
            return seconds.get(0)[1] - 1000;
        }

        long endMillis() {
            return seconds.get(seconds.size() - 1)[1];
        }
    }

    /** A provider's SERVED lines: epoch ms → calls served so far. */
    private static java.util.TreeMap<Long, Long> served(Path log) throws IOException {
        java.util.TreeMap<Long, Long> served = new java.util.TreeMap<>();
        if (Files.exists(log)) {
            for (String line : Files.readAllLines(log)) {
                if (line.startsWith("SERVED ")) {
                    String[] c = line.split(" ");
                    served.put(Long.parseLong(c[1]), Long.parseLong(c[2]));
                }
            }
        }
        return served;
    }

    /** The slow provider's (p1's) share of the calls both served between two instants, in %. */
    private static double share(java.util.TreeMap<Long, Long> p1, java.util.TreeMap<Long, Long> p2, long from,
                                long to) {
        long a = servedBetween(p1, from, to);
        long b = servedBetween(p2, from, to);
        return 100.0 * a / Math.max(1, a + b);
    }

    /** Calls a provider served between two instants, from its nearest SERVED lines. */
    private static long servedBetween(java.util.TreeMap<Long, Long> served, long from, long to) {
        Map.Entry<Long, Long> a = served.floorEntry(from + 500);
        Map.Entry<Long, Long> b = served.floorEntry(to + 500);
        return a == null || b == null ? 0 : b.getValue() - a.getValue();
    }

    // ---- balance: a slow provider beside a fast one

    private void balance() throws IOException {
        String[][] rows = {{"ferry-adaptive", "Ferry, adaptive (its default)"}, {"ferry-random", "Ferry, random"},
                {"ferry-leastactive", "Ferry, leastactive"}, {"dubbo-random", "Dubbo 3.3.6, random (its default)"},
                {"dubbo-leastactive", "Dubbo 3.3.6, leastactive"},
                {"dubbo-leastactive-actives", "Dubbo 3.3.6, leastactive with actives=1000"}};
        StringBuilder md = new StringBuilder(header("A slow provider beside a fast one"));
        md.append("Two providers: p1 with 5 ms added to its round trip (2.5 ms each way on its link), p2 with 0.1 ms. "
                + "One consumer, 32 blocking callers of getUser, 10 s warm-up, 10 s measured; the shares are the calls "
                + "each provider served in those 10 s (its own count). Ferry finds both in ZooKeeper (warmup 0, so that "
                + "neither weighs less for being younger); Dubbo is given both as one reference's url list. Dubbo's "
                + "leastactive reads calls in flight that Dubbo counts only when the reference sets actives (its "
                + "ActiveLimitFilter); actives=1000 turns the counting on without limiting 32 callers. First 10 s: "
                + "the warm-up, from the consumer's first call on; then the 10 s measured.\n\n| balancer "
                + "| slow p1 share, first 10 s | slow p1 share | fast p2 share | calls/s | p50 µs | p99 µs |\n"
                + "|---|---:|---:|---:|---:|---:|---:|\n");
        StringBuilder csv = new StringBuilder("balancer,second,slow_served,fast_served\n");
        XYChart chart = new XYChartBuilder().width(1100).height(540)
                .title("Share of calls to the slow provider (5 ms) beside a fast one (0.1 ms), each second")
                .xAxisTitle("second (below 0: warm-up, from the first call)").yAxisTitle("% of calls to the slow one")
                .build();
        for (String[] row : rows) {
            String name = "balance-" + row[0];
            if (!Files.exists(runs.resolve(name + ".csv"))) {
                continue;
            }
            Load load = Load.read(runs, name);
            var p1 = served(runs.resolve(name + ".p1.log"));
            var p2 = served(runs.resolve(name + ".p2.log"));
            double s1 = share(p1, p2, load.startMillis(), load.endMillis());
            double first = load.warmUp().isEmpty() ? Double.NaN : share(p1, p2, load.warmUp().get(0)[1] - 1000,
                    load.warmUp().get(load.warmUp().size() - 1)[1]);
            md.append(String.format(Locale.ROOT, "| %s | %s | %.1f %% | %.1f %% | %,.0f | %,d | %,d |%n", row[1],
                    Double.isNaN(first) ? "–" : String.format(Locale.ROOT, "%.1f %%", first), s1, 100 - s1,
                    load.callsPerSecond(), load.summary().get("p50_us"), load.summary().get("p99_us")));
            List<Double> x = new ArrayList<>();
            List<Double> y = new ArrayList<>();
            for (List<long[]> part : List.of(load.warmUp(), load.seconds())) {
                for (long[] r : part) {
                    long a = servedBetween(p1, r[1] - 1000, r[1]);
                    long b = servedBetween(p2, r[1] - 1000, r[1]);
                    csv.append(String.format(Locale.ROOT, "%s,%d,%d,%d%n", row[0], r[0], a, b));
                    if (a + b > 0) {
                        x.add((double) r[0]);
                        y.add(100.0 * a / (a + b));
                    }
                }
            }
            if (!x.isEmpty()) {
                chart.addSeries(row[0], x, y);
            }
        }
        write("netem-balance", md, csv, chart);
    }

    // ---- loss: 1 % on one provider's link

    private void loss() throws IOException {
        String[][] rows = {{"ferry-adaptive-true-32", "Ferry, adaptive, ejection (its defaults); 32 callers"},
                {"ferry-adaptive-false-32", "Ferry, adaptive, no ejection; 32 callers"},
                {"ferry-random-true-32", "Ferry, random, ejection; 32 callers"},
                {"ferry-random-false-32", "Ferry, random, no ejection; 32 callers"},
                {"dubbo-random-na-32", "Dubbo 3.3.6, random (its default); 32 callers"},
                {"ferry-adaptive-true-2", "Ferry, adaptive, ejection (its defaults); 2 callers"},
                {"ferry-random-false-2", "Ferry, random, no ejection; 2 callers"},
                {"dubbo-random-na-2", "Dubbo 3.3.6, random (its default); 2 callers"}};
        StringBuilder md = new StringBuilder(header("1 % packet loss on one provider's link"));
        md.append("Two providers, 0.1 ms added to each round trip; p1's link also loses 1 % of the packets each way "
                + "(so a few % of p1's round trips lose a packet). One consumer, 32 or 2 blocking callers of getUser, "
                + "timeout 1 s, 10 s warm-up, 15 s measured. With 32 callers the lossy connection is always busy, "
                + "so TCP repairs most losses by fast retransmit; with 2 it is idle between calls, so a lost packet "
                + "waits for the retransmission timeout (200 ms at least).\n\n| set-up | calls/s | failed | p50 µs | p99 µs "
                + "| p99.9 µs |\n|---|---:|---:|---:|---:|---:|\n");
        StringBuilder csv = new StringBuilder("setup,calls_per_s,failed,p50_us,p99_us,p999_us\n");
        CategoryChart chart = new CategoryChartBuilder().width(1000).height(500)
                .title("1 % loss on one provider's link: p99 and p99.9 (ms)").xAxisTitle("set-up").yAxisTitle("ms")
                .build();
        List<String> labels = new ArrayList<>();
        List<Double> p99 = new ArrayList<>();
        List<Double> p999 = new ArrayList<>();
        for (String[] row : rows) {
            String name = "loss-" + row[0];
            if (!Files.exists(runs.resolve(name + ".csv"))) {
                continue;
            }
            Load load = Load.read(runs, name);
            Map<String, Long> s = load.summary();
            md.append(String.format(Locale.ROOT, "| %s | %,.0f | %,d | %,d | %,d | %,d |%n", row[1],
                    load.callsPerSecond(), s.get("failed"), s.get("p50_us"), s.get("p99_us"), s.get("p999_us")));
            csv.append(String.format(Locale.ROOT, "%s,%.1f,%d,%d,%d,%d%n", row[0], load.callsPerSecond(),
                    s.get("failed"), s.get("p50_us"), s.get("p99_us"), s.get("p999_us")));
            labels.add(row[0]);
            p99.add(s.get("p99_us") / 1000.0);
            p999.add(s.get("p999_us") / 1000.0);
        }
        chart.getStyler().setXAxisLabelRotation(20);
        chart.addSeries("p99", labels, p99);
        chart.addSeries("p99.9", labels, p999);
        write("netem-loss", md, csv, chart);
    }

    // ---- partition: a provider blackholed, and one cut off from ZooKeeper only

    private void partition() throws IOException {
        String[][] rows = {{"ferry-adaptive-true", "Ferry, adaptive, ejection (its defaults)"},
                {"ferry-random-true", "Ferry, random, ejection"}, {"ferry-random-false", "Ferry, random, no ejection"},
                {"dubbo-random-na", "Dubbo 3.3.6, random (its default)"},
                {"asymmetric", "Ferry defaults; p1 cut off from ZooKeeper only (session 4 s)"}};
        StringBuilder md = new StringBuilder(header("A provider partitioned away"));
        md.append("Two providers, 0.1 ms added to each round trip; one consumer, 32 blocking callers of getUser, "
                + "timeout 1 s (each system's default), 10 s warm-up, then seconds 0–24. At second 5 p1's link drops "
                + "every packet both ways (a blackhole: nothing is refused, connections stay open) until second 20. "
                + "The last row cuts p1 off from ZooKeeper only (ZooKeeper and p1 drop each other's packets), "
                + "so the consumer still reaches it, with p1's ZooKeeper session at 4 s so that it expires during "
                + "the cut. Before: mean calls/s of seconds 0–4. Seconds 5 and 6 are the first two after the cut; "
                + "lowest 7–19 is the lowest second after them, while the partition lasts (a second dip shows "
                + "there: the probe of an ejected provider). p1's share: calls p1 served, by its own count.\n\n"
                + "Probes: the second in which each probe of the ejected p1 ended (Ferry's log), how, and that "
                + "second's calls/s against before.\n\n"
                + "| set-up | before, calls/s | second 5 | second 6 | lowest 7–19 (its second) | probes | failed 5–19 "
                + "| p1 share 0–4 / 8–19 / 21–24 |\n|---|---:|---:|---:|---:|---|---:|---:|\n");
        StringBuilder csv = new StringBuilder("setup,second,ok,failed,p50_us,p99_us,p1_served,p2_served\n");
        XYChart chart = new XYChartBuilder().width(1100).height(560)
                .title("Calls/s each second: p1 partitioned away from second 5 to 20").xAxisTitle("second")
                .yAxisTitle("successful calls/s").build();
        for (String[] row : rows) {
            String name = "partition-" + row[0];
            if (!Files.exists(runs.resolve(name + ".csv"))) {
                continue;
            }
            Load load = Load.read(runs, name);
            var p1 = served(runs.resolve(name + ".p1.log"));
            var p2 = served(runs.resolve(name + ".p2.log"));
            List<long[]> s = load.seconds();
            double before = s.subList(0, 5).stream().mapToLong(r -> r[2]).average().orElse(0);
            long lowest = Long.MAX_VALUE;
            long lowestSecond = -1;
            long failed = 0;
            for (long[] r : s) {
                if (r[0] >= 7 && r[0] <= 19 && r[2] < lowest) {
                    lowest = r[2];
                    lowestSecond = r[0];
                }
                if (r[0] >= 5 && r[0] <= 19) {
                    failed += r[3];
                }
            }
            double[] x = new double[s.size()];
            double[] y = new double[s.size()];
            for (int i = 0; i < s.size(); i++) {
                long[] r = s.get(i);
                x[i] = r[0];
                y[i] = r[2];
                csv.append(String.format(Locale.ROOT, "%s,%d,%d,%d,%d,%d,%d,%d%n", row[0], r[0], r[2], r[3], r[4],
                        r[5], servedBetween(p1, r[1] - 1000, r[1]), servedBetween(p2, r[1] - 1000, r[1])));
            }
            md.append(String.format(Locale.ROOT, "| %s | %,.0f | %s | %s | %s | %s | %,d | %s / %s / %s |%n", row[1],
                    before, relative(s, 5, before), relative(s, 6, before), lowest == Long.MAX_VALUE ? "–"
                            : String.format(Locale.ROOT, "%,d (%.0f %%, second %d)", lowest, 100 * lowest / before,
                            lowestSecond), probes(load, before), failed,
                    share(load, p1, p2, 0, 4), share(load, p1, p2, 8, 19), share(load, p1, p2, 21, 24)));
            chart.addSeries(row[0], x, y);
        }
        write("netem-partition", md, csv, chart);
    }

    /**
     * The probes of an ejected provider in the consumer's log ({@code OutlierDetector}'s lines, stamped HH:mm:ss.SSS
     * in UTC on the day of the run): "second 11 failed, 101 %", or "–" for none.
     */
    private String probes(Load load, double before) throws IOException {
        List<String> probes = new ArrayList<>();
        java.time.LocalDate day = Instant.ofEpochMilli(load.startMillis()).atZone(java.time.ZoneOffset.UTC)
                .toLocalDate();
        for (String line : Files.readAllLines(runs.resolve(load.name() + ".log"))) {
            String how = line.contains("its probe failed") ? "failed" : line.contains("answered its probe")
                    ? "answered" : null;
            if (how == null || line.length() < 12) {
                continue;
            }
            long at = java.time.LocalTime.parse(line.substring(0, 12)).atDate(day).toInstant(java.time.ZoneOffset.UTC)
                    .toEpochMilli();
            for (long[] r : load.seconds()) {
                if (at >= r[1] - 1000 && at < r[1]) {
                    probes.add(String.format(Locale.ROOT, "second %d %s, %.0f %%", r[0], how, 100 * r[2] / before));
                }
            }
        }
        return probes.isEmpty() ? "–" : String.join("; ", probes);
    }

    private static String relative(List<long[]> seconds, int second, double before) {
        return seconds.stream().filter(r -> r[0] == second).findFirst()
                .map(r -> String.format(Locale.ROOT, "%,d (%.0f %%)", r[2], 100 * r[2] / before)).orElse("–");
    }

    private static String share(Load load, java.util.TreeMap<Long, Long> p1, java.util.TreeMap<Long, Long> p2,
                                int from, int to) {
        long start = -1;
        long end = -1;
        for (long[] r : load.seconds()) {
            if (r[0] == from) {
                start = r[1] - 1000;
            }
            if (r[0] == to) {
                end = r[1];
            }
        }
        if (start < 0 || end < 0) {
            return "–";
        }
        long a = servedBetween(p1, start, end);
        long b = servedBetween(p2, start, end);
        return a + b == 0 ? "–" : String.format(Locale.ROOT, "%.0f %%", 100.0 * a / (a + b));
    }

    private void write(String name, StringBuilder md, StringBuilder csv, Chart<?, ?> chart) throws IOException {
        Files.createDirectories(out);
        Files.writeString(out.resolve(name + ".md"), md.toString(), StandardCharsets.UTF_8);
        Files.writeString(out.resolve(name + ".csv"), csv.toString(), StandardCharsets.UTF_8);
        BitmapEncoder.saveBitmap(chart, out.resolve(name).toString(), BitmapEncoder.BitmapFormat.PNG);
        System.out.println("wrote " + out.resolve(name + ".md") + ", .csv and .png");
    }
}
