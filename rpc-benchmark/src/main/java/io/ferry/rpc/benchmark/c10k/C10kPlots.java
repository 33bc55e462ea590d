package io.ferry.rpc.benchmark.c10k;

import io.ferry.rpc.benchmark.Cli;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.style.Styler;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * Draws the C10K results from their CSV files: {@code c10k-stall.png} (heartbeats and p99 around the stall, for
 * fixed timers, Dubbo's consumers and Ferry's) and {@code c10k-restart.png} (calls and ready connections around the
 * restart, Ferry's consumers and Dubbo's). Usage: {@code C10kPlots [results directory]}.
 */
@Command(name = "C10kPlots", description = "Draws c10k-stall.png and c10k-restart.png from the C10K runs' CSV files "
        + "(c10k-stall-jitter-off, -jitter-on, -dubbo-consumers; c10k-restart, -dubbo-consumers).")
public final class C10kPlots implements Callable<Integer> {
    @Mixin
    private Cli.HelpOption help;

    @Parameters(index = "0", arity = "0..1", defaultValue = "rpc-benchmark/results", paramLabel = "DIR",
            description = "The directory the CSV files are in and the plots go to (default: ${DEFAULT-VALUE}).")
    private Path dir;

    private C10kPlots() {
    }

    /** One run's CSV: a column by name, one value a second. */
    private record Run(String label, List<String> header, List<double[]> rows) {
        static Run load(Path dir, String name, String label) throws IOException {
            List<String> lines = Files.readAllLines(dir.resolve(name + ".csv"));
            List<double[]> rows = new ArrayList<>();
            for (String line : lines.subList(1, lines.size())) {
                rows.add(Arrays.stream(line.split(",")).mapToDouble(Double::parseDouble).toArray());
            }
            return new Run(label, List.of(lines.get(0).split(",")), rows);
        }

        double[] column(String name, double scale) {
            int i = header.indexOf(name);
            return rows.stream().mapToDouble(r -> r[i] / scale).toArray();
        }
    }

    public static void main(String[] args) {
        System.exit(commandLine().execute(args));
    }

    /** The command line {@link #main} parses and runs. */
    public static CommandLine commandLine() {
        return Cli.of(new C10kPlots());
    }

    @Override
    public Integer call() throws IOException {
        List<Run> stall = List.of(
                Run.load(dir, "c10k-stall-jitter-off", "Ferry, fixed timers (jitter=0)"),
                Run.load(dir, "c10k-stall-dubbo-consumers", "stock Dubbo 3.3.6 consumers"),
                Run.load(dir, "c10k-stall-jitter-on", "Ferry (per-cycle jitter)"));
        XYChart heartbeats = chart("10,000 connections, 1,000 calls/s, 5 s heartbeat: a 6 s provider stall at second 30",
                "heartbeats answered / s", false);
        XYChart p99 = chart("", "p99 (ms, log)", true);
        for (Run run : stall) {
            heartbeats.addSeries(run.label(), run.column("second", 1), run.column("heartbeats", 1));
            p99.addSeries(run.label(), run.column("second", 1), floor(run.column("p99_us", 1000), 0.01));
        }
        save(dir.resolve("c10k-stall"), heartbeats, p99);

        List<Run> restart = List.of(
                Run.load(dir, "c10k-restart", "Ferry consumers"),
                Run.load(dir, "c10k-restart-dubbo-consumers", "stock Dubbo 3.3.6 consumers"));
        XYChart failed = chart("10,000 connections: provider killed at second 30, ready again about second 36",
                "failed calls / s", false);
        XYChart ready = chart("", "ready connections", false, Styler.LegendPosition.InsideSE);
        for (Run run : restart) {
            failed.addSeries(run.label(), run.column("second", 1), run.column("calls_failed", 1));
            ready.addSeries(run.label(), run.column("second", 1), run.column("ready_connections", 1));
        }
        save(dir.resolve("c10k-restart"), failed, ready);
        return 0;
    }

    private static XYChart chart(String title, String yTitle, boolean log) {
        return chart(title, yTitle, log, Styler.LegendPosition.InsideNE);
    }

    private static XYChart chart(String title, String yTitle, boolean log, Styler.LegendPosition legend) {
        XYChart chart = new XYChartBuilder().width(900).height(300).title(title).xAxisTitle("second")
                .yAxisTitle(yTitle).build();
        chart.getStyler().setLegendPosition(legend);
        chart.getStyler().setMarkerSize(0);
        chart.getStyler().setYAxisLogarithmic(log);
        return chart;
    }

    /** A log axis cannot show the seconds without calls (p99 0): they sit at the floor instead. */
    private static double[] floor(double[] values, double floor) {
        return Arrays.stream(values).map(v -> Math.max(v, floor)).toArray();
    }

    private static void save(Path file, XYChart top, XYChart bottom) throws IOException {
        BitmapEncoder.saveBitmap(List.of(top, bottom), 2, 1, file.toString(), BitmapEncoder.BitmapFormat.PNG);
        System.out.println("wrote " + file + ".png");
    }
}
