package io.ferry.rpc.benchmark.congestion;

import io.ferry.rpc.benchmark.Cli;
import io.ferry.rpc.benchmark.Latencies;
import org.HdrHistogram.Histogram;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

/**
 * The congestion experiment (field report 1: big responses sharing one connection): the same spike of load
 * against 1 fixed connection, 4 fixed connections and Ferry's elastic pool, with the OS's socket buffers and with
 * 64 KiB ones; then a consumer that never reads beside a polite one. Each set-up gets a fresh provider process.
 *
 * <pre>
 *   CongestionExperiment consumers=4 rate=40 spikeSeconds=30 quietSeconds=30 abuserSeconds=15
 *                        out=rpc-benchmark/results/congestion [only=abuser]
 * </pre>
 * Writes OUT.md (the table), OUT.csv (one row per set-up and second) and OUT-queued.png, and prints the table.
 * {@code --help} describes every flag.
 */
public final class CongestionExperiment {
    private static final List<SpikeRun.Setup> SETUPS = List.of(
            new SpikeRun.Setup("1 connection", 1, 0),
            new SpikeRun.Setup("4 connections", 4, 0),
            new SpikeRun.Setup("elastic (default)", 0, 0),
            new SpikeRun.Setup("1 connection, 64 KiB buffers", 1, 64 * 1024),
            new SpikeRun.Setup("elastic, 64 KiB buffers", 0, 64 * 1024));

    /** The part of the experiment to run alone. */
    enum Part {
        ABUSER;

        @Override
        public String toString() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** The command line: {@code name=value} flags, as {@code congestion.sh} passes them on. */
    @Command(name = "CongestionExperiment", description = {"The same spike of big answers against 1 connection, 4 "
            + "connections and Ferry's elastic pool, with the OS's socket buffers and 64 KiB ones; then a consumer "
            + "that never reads beside a polite one. Writes PATH.md, PATH.csv and PATH-queued.png, PATH as out= gives "
            + "it.",
            "Run it through rpc-benchmark/congestion.sh, which shapes the link and passes its arguments on: "
                    + "LINK=1gbit bash rpc-benchmark/congestion.sh rate=250"})
    static final class Options implements Callable<Integer> {
        @Spec
        private CommandSpec spec;

        @Mixin
        private Cli.HelpOption help;

        @Option(names = "consumers", defaultValue = "4", paramLabel = "N",
                description = "Consumers, one Ferry bootstrap each (default: ${DEFAULT-VALUE}).")
        private int consumers;

        @Option(names = "rate", defaultValue = "40", paramLabel = "CALLS",
                description = "Calls per second over all consumers during the spike (default: ${DEFAULT-VALUE}).")
        private int rate;

        @Option(names = "spikeSeconds", defaultValue = "30", paramLabel = "SECONDS",
                description = "Length of the spike, in seconds (default: ${DEFAULT-VALUE}).")
        private int spikeSeconds;

        @Option(names = "quietSeconds", defaultValue = "30", paramLabel = "SECONDS", description = "Length of the "
                + "quiet after it (1 small call a second), in seconds (default: ${DEFAULT-VALUE}).")
        private int quietSeconds;

        @Option(names = "abuserSeconds", defaultValue = "15", paramLabel = "SECONDS", description = "How long the "
                + "polite consumer runs alone, and then beside the non-reading one, in seconds "
                + "(default: ${DEFAULT-VALUE}).")
        private int abuserSeconds;

        @Option(names = "out", defaultValue = "rpc-benchmark/results/congestion", paramLabel = "PATH",
                description = "Where the results go, without extension (default: ${DEFAULT-VALUE}).")
        private String out;

        @Option(names = "link", defaultValue = "none", paramLabel = "RATE", description = "The rate the loopback is "
                + "shaped to, for the report's text only: congestion.sh shapes it and passes LINK on "
                + "(default: ${DEFAULT-VALUE}).")
        private String link;

        @Option(names = "only", paramLabel = "abuser",
                description = "Runs only this part: the non-reading consumer (default: every part).")
        private Part only;

        @Override
        public Integer call() throws Exception {
            Cli.atLeast(spec, "consumers", consumers, 1);
            Cli.atLeast(spec, "rate", rate, 1);
            Cli.atLeast(spec, "spikeSeconds", spikeSeconds, 1);
            Cli.atLeast(spec, "quietSeconds", quietSeconds, 0);
            Cli.atLeast(spec, "abuserSeconds", abuserSeconds, 1);
            run(this, spec.commandLine().getParseResult().originalArgs());
            return 0;
        }
    }

    private CongestionExperiment() {
    }

    public static void main(String[] argv) {
        System.setProperty("java.awt.headless", "true");
        System.exit(commandLine().execute(argv));
    }

    /** The command line {@link #main} parses and runs. */
    public static CommandLine commandLine() {
        return Cli.of(new Options());
    }

    private static void run(Options o, List<String> argv) throws Exception {
        List<SpikeRun.Outcome> outcomes = new ArrayList<>();
        for (SpikeRun.Setup setup : o.only == Part.ABUSER ? List.<SpikeRun.Setup>of() : SETUPS) {
            System.out.printf("running %s: %d consumers, %d calls/s for %d s, then 1/s for %d s%n", setup.name(),
                    o.consumers, o.rate, o.spikeSeconds, o.quietSeconds);
            SpikeRun.Outcome outcome = new SpikeRun(setup, o.consumers, o.rate, o.spikeSeconds, o.quietSeconds).run();
            outcomes.add(outcome);
            System.out.println(row(outcome));
        }
        System.out.printf("running the non-reading consumer for %d s beside a polite one%n", o.abuserSeconds);
        AbuserRun.Outcome abuser = new AbuserRun(o.abuserSeconds).run();

        String report = report(outcomes, abuser, o.consumers, o.rate, o.spikeSeconds, o.quietSeconds,
                o.abuserSeconds, o.link, argv);
        Files.writeString(Path.of(o.out + ".md"), report, StandardCharsets.UTF_8);
        writeCsv(Path.of(o.out + ".csv"), outcomes);
        plot(Path.of(o.out + "-queued.png"), outcomes);
        System.out.println(report);
    }

    private static final String HEADER = "| set-up | calls ok/s (spike) | p99 ms (spike) | failed calls |"
            + " max KiB queued for a connection: consumer / provider | connections (max) | provider peak heap / direct / RSS MiB |"
            + " executed after deadline | spike work ended, ms after the spike |\n"
            + "|---|---:|---:|---|---:|---:|---:|---:|---:|\n";

    private static String row(SpikeRun.Outcome o) {
        long ok = 0;
        long maxQueued = 0;
        long providerQueued = 0;
        int connections = 0;
        long heap = 0;
        long direct = 0;
        long rss = 0;
        Histogram spikeLatencies = Latencies.emptyHistogram();
        for (int i = 0; i < o.seconds().length; i++) {
            SpikeRun.Second s = o.seconds()[i];
            if (i < o.spikeSeconds()) {
                ok += s.latencyMicros.count();
                spikeLatencies.add(s.latencyMicros.histogram());
            }
            maxQueued = Math.max(maxQueued, s.maxQueuedPerConnection);
            providerQueued = Math.max(providerQueued, s.providerMaxQueued);
            connections = Math.max(connections, s.connections);
            heap = Math.max(heap, s.providerHeap);
            direct = Math.max(direct, s.providerDirect);
            rss = Math.max(rss, s.providerRss);
        }
        double p99 = Latencies.percentile(spikeLatencies, 99) / 1000.0;
        StringBuilder failed = new StringBuilder();
        o.failures().forEach((status, count) -> failed.append(failed.length() == 0 ? "" : ", ")
                .append(String.format(Locale.ROOT, "%,d %s", count, status)));
        return String.format(Locale.ROOT, "| %s | %.1f | %.0f | %s | %d / %,d | %d | %d / %d / %d | %d | %d |",
                o.setup().name(), ok / (double) o.spikeSeconds(), p99, failed.length() == 0 ? "0" : failed,
                maxQueued / 1024, providerQueued / 1024,
                connections, heap >> 20, direct >> 20, rss >> 20, o.executedLate(),
                Math.max(0, o.lastSpikeWorkEndedMillisAfterSpike()));
    }

    private static String report(List<SpikeRun.Outcome> outcomes, AbuserRun.Outcome abuser, int consumers, int rate,
                                 int spike, int quiet, int abuserSeconds, String link, List<String> argv) {
        StringBuilder md = new StringBuilder();
        md.append("# Congestion experiment\n\n");
        md.append(String.format(Locale.ROOT, "%d consumers (one Ferry bootstrap each) send %d calls/s in all for %d s,"
                + " then 1 call/s for %d s. Spike calls ask for 1 KiB, 64 KiB, 512 KiB or 2 MiB (equally likely)"
                + " after a 1–300 ms pause; every call has a 1 s timeout and no retry. The provider runs in its own"
                + " JVM (-Xmx1g, 1 GiB direct memory) with Ferry's defaults. Both talk over a loopback shaped to %s"
                + " (a tc token bucket in a network namespace of their own). Command: `LINK=%s bash"
                + " rpc-benchmark/congestion.sh %s`.%n%n", consumers, rate, spike, quiet, link, link,
                String.join(" ", argv.stream().filter(a -> !a.startsWith("link=")).toList())));
        md.append(HEADER);
        for (SpikeRun.Outcome o : outcomes) {
            md.append(row(o)).append('\n');
        }
        md.append("\nFailed calls are counted by status over the whole run. \"Spike work ended\" is when the last"
                + " call that slept finished on the provider, after the spike's last second. Before each run, 5 s at a"
                + " quarter of the rate warm both JVMs up.\n\n");
        md.append("## A consumer that never reads\n\n");
        md.append(String.format(Locale.ROOT, "The abuser writes up to %,d `fetch(1 KiB)` requests on one raw socket"
                + " for %d s and reads nothing; a polite consumer calls `fetch(1 KiB)` from 4 threads, first alone,"
                + " then beside it.%n%n", AbuserRun.ABUSER_REQUESTS, abuserSeconds));
        md.append("| requests the abuser got written | provider RSS before → after (MiB) | added |"
                + " polite p99 alone → beside (µs) | ratio | polite calls alone / beside | polite failures |\n");
        md.append("|---:|---:|---:|---:|---:|---:|---:|\n");
        md.append(String.format(Locale.ROOT, "| %,d | %d → %d | %d MiB | %d → %d | %.2f | %,d / %,d | %d |%n",
                abuser.abuserRequestsWritten(), abuser.rssBeforeBytes() >> 20, abuser.rssAfterBytes() >> 20,
                (abuser.rssAfterBytes() - abuser.rssBeforeBytes()) >> 20, abuser.politeP99AloneMicros(),
                abuser.politeP99BesideMicros(), abuser.politeP99BesideMicros()
                        / (double) Math.max(1, abuser.politeP99AloneMicros()), abuser.politeCallsAlone(),
                abuser.politeCallsBeside(), abuser.politeFailures()));
        return md.toString();
    }

    private static void writeCsv(Path path, List<SpikeRun.Outcome> outcomes) throws IOException {
        try (PrintWriter csv = new PrintWriter(Files.newBufferedWriter(path, StandardCharsets.UTF_8))) {
            csv.println("setup,second,calls_ok,p99_us,timeouts,congested,max_queued_bytes,provider_max_queued_bytes,"
                    + "connections,"
                    + "provider_running,provider_heap,provider_direct,provider_rss");
            for (SpikeRun.Outcome o : outcomes) {
                for (int i = 0; i < o.seconds().length; i++) {
                    SpikeRun.Second s = o.seconds()[i];
                    csv.printf(Locale.ROOT, "\"%s\",%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d%n", o.setup().name(), i,
                            s.latencyMicros.count(), s.latencyMicros.percentile(99), s.timeouts.get(),
                            s.congested.get() + s.otherFailures.get(), s.maxQueuedPerConnection,
                            s.providerMaxQueued, s.connections,
                            s.providerRunning, s.providerHeap, s.providerDirect, s.providerRss);
                }
            }
        }
    }

    private static void plot(Path path, List<SpikeRun.Outcome> outcomes) throws IOException {
        XYChart chart = new XYChartBuilder().width(1000).height(520)
                .title("Most bytes queued for one connection on the provider (spike, then quiet)")
                .xAxisTitle("second").yAxisTitle("KiB queued").build();
        for (SpikeRun.Outcome o : outcomes) {
            double[] x = new double[o.seconds().length];
            double[] y = new double[o.seconds().length];
            for (int i = 0; i < x.length; i++) {
                x[i] = i;
                y[i] = o.seconds()[i].providerMaxQueued / 1024.0;
            }
            chart.addSeries(o.setup().name(), x, y);
        }
        BitmapEncoder.saveBitmap(chart, path.toString(), BitmapEncoder.BitmapFormat.PNG);
    }
}
