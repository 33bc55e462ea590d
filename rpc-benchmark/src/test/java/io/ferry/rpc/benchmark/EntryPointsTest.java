package io.ferry.rpc.benchmark;

import io.ferry.rpc.benchmark.c10k.C10kDubboProvider;
import io.ferry.rpc.benchmark.c10k.C10kExperiment;
import io.ferry.rpc.benchmark.c10k.C10kPlots;
import io.ferry.rpc.benchmark.c10k.C10kProvider;
import io.ferry.rpc.benchmark.congestion.CongestionExperiment;
import io.ferry.rpc.benchmark.congestion.CongestionProvider;
import io.ferry.rpc.benchmark.demo.Demo;
import io.ferry.rpc.benchmark.demo.FileConsumer;
import io.ferry.rpc.benchmark.net.NetLoad;
import io.ferry.rpc.benchmark.net.NetReport;
import io.ferry.rpc.benchmark.suite.Bench;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import java.util.function.Supplier;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every entry point's command line, without running it: {@code --help} exits 0 and names every flag the scripts and
 * the README use; a wrong flag or value exits 2 with a message naming it (then the usage text, or picocli's guess
 * at the flag meant).
 */
class EntryPointsTest {
    /** What a command line printed and returned. */
    private record Run(int exitCode, String out, String err) {
        static Run of(Supplier<CommandLine> commandLine, List<String> args) {
            StringWriter out = new StringWriter();
            StringWriter err = new StringWriter();
            CommandLine cli = commandLine.get();
            cli.setOut(new PrintWriter(out));
            cli.setErr(new PrintWriter(err));
            int code = cli.execute(args.toArray(String[]::new));
            return new Run(code, out.toString(), err.toString());
        }
    }

    static Stream<Arguments> helps() {
        Supplier<CommandLine> bench = Bench::commandLine;
        Supplier<CommandLine> c10k = C10kExperiment::commandLine;
        Supplier<CommandLine> congestion = CongestionExperiment::commandLine;
        List<String> iterations = List.of("--profile", "--warmups", "--warmupSeconds", "--measurements",
                "--measureSeconds", "--out");
        return Stream.of(
                Arguments.of(bench, List.of("--help"), List.of("server", "client", "suite", "experiment")),
                Arguments.of(bench, List.of("server", "--help"), List.of("--system", "--host", "--port", "--countEvery",
                        "default: ferry", "default: 0.0.0.0", "default: 20880")),
                Arguments.of(bench, List.of("client", "--help"), List.of("--system", "--host", "--port", "--csv", "--profile",
                        "--rounds", "--providerWarmup", "--methods", "--windows", "--latency", "default: 127.0.0.1")),
                Arguments.of(bench, List.of("suite", "--help"), concat(iterations, "--publish", "--jvm-arg",
                        "planned:", "--systems", "--rounds",
                        "--providerWarmup", "--methods", "--windows", "--latency", "default: quick", "in seconds",
                        "full: --warmups 6 --warmupSeconds 5 --measurements 3 --measureSeconds 8")),
                Arguments.of(bench, List.of("experiment", "--help"), List.of("connections", "nagle")),
                Arguments.of(bench, List.of("experiment", "connections", "--help"), concat(iterations, "--systems",
                        "--providerWarmup", "default: ferry,dubbo")),
                Arguments.of(bench, List.of("experiment", "nagle", "--help"), concat(iterations, "--publish",
                        "--jvm-arg")),
                Arguments.of(c10k, List.of("--help"), List.of("scenario=", "connections=", "rate=", "heartbeatMs=",
                        "jitter=", "seconds=", "eventAt=", "provider=", "consumer=", "out=", "default: 10000",
                        "default: 0.5", "in ms")),
                Arguments.of(congestion, List.of("--help"), List.of("consumers=", "rate=", "spikeSeconds=",
                        "quietSeconds=", "abuserSeconds=", "out=", "link=", "only=", "default: 40")),
                Arguments.of((Supplier<CommandLine>) Demo::commandLine, List.of("--help"), List.of("--help",
                        "exec:java", "--admin-seconds", "--admin-port", "default: 0", "default: 22222")),
                Arguments.of((Supplier<CommandLine>) FileConsumer::commandLine, List.of("--help"), List.of("FILE")),
                Arguments.of((Supplier<CommandLine>) C10kPlots::commandLine, List.of("--help"), List.of("DIR",
                        "default: rpc-benchmark/results")),
                Arguments.of((Supplier<CommandLine>) C10kProvider::commandLine, List.of("--help"), List.of("PORT", "MILLIS", "in ms")),
                Arguments.of((Supplier<CommandLine>) C10kDubboProvider::commandLine, List.of("--help"), List.of("PORT", "MILLIS")),
                Arguments.of((Supplier<CommandLine>) CongestionProvider::commandLine, List.of("--help"), List.of("BYTES", "default: 0")),
                Arguments.of((Supplier<CommandLine>) NetLoad::commandLine, List.of("--help"), List.of("--system",
                        "--registry", "--urls", "--loadbalance", "--ejection", "--method", "--callers", "--timeout",
                        "--warmup", "--seconds", "--at", "--out", "default: 32", "default: 1000")),
                Arguments.of((Supplier<CommandLine>) NetReport::commandLine, List.of("--help"), List.of("--runs",
                        "--out", "--command", "--backend", "--note", "rtt|balance|loss|partition")));
    }

    @ParameterizedTest(name = "{1}")
    @MethodSource("helps")
    void helpExitsZeroAndNamesEveryFlag(Supplier<CommandLine> commandLine, List<String> args, List<String> named) {
        Run run = Run.of(commandLine, args);

        assertEquals(0, run.exitCode(), run.err());
        String text = run.out().replaceAll("\\s+", " "); // the usage text wraps at 80 columns
        for (String flag : named) {
            assertTrue(text.contains(flag), "'" + flag + "' in:\n" + run.out());
        }
    }

    static Stream<Arguments> mistakes() {
        Supplier<CommandLine> bench = Bench::commandLine;
        Supplier<CommandLine> c10k = C10kExperiment::commandLine;
        Supplier<CommandLine> congestion = CongestionExperiment::commandLine;
        return Stream.of(
                Arguments.of(bench, List.of(), "Missing required subcommand"),
                Arguments.of(bench, List.of("bench"), "'bench'"),
                Arguments.of(bench, List.of("suite", "--measureSecond", "8"), "'--measureSecond'"),
                Arguments.of(bench, List.of("suite", "--profile", "fast"), "'--profile'"),
                Arguments.of(bench, List.of("suite", "--systems", "ferry,dubo"), "dubo"),
                Arguments.of(bench, List.of("suite", "--latency", "maybe"), "'--latency'"),
                Arguments.of(bench, List.of("suite", "--methods", "getUsers"), "--methods: getUsers"),
                Arguments.of(bench, List.of("suite", "--rounds", "0"), "--rounds: 0 (expected: >= 1)"),
                Arguments.of(bench, List.of("suite", "--publish", "--out", "x"), "--out x and --publish"),
                Arguments.of(bench, List.of("client", "--port", "http"), "'--port'"),
                Arguments.of(bench, List.of("experiment"), "Missing required subcommand"),
                Arguments.of(bench, List.of("experiment", "nagle", "--systems", "ferry"), "'--systems'"),
                Arguments.of(c10k, List.of("scenario=stal"), "'scenario'"),
                Arguments.of(c10k, List.of("conections=10"), "'conections=10'"),
                Arguments.of(c10k, List.of("rate=0"), "rate: 0 (expected: >= 1)"),
                Arguments.of(c10k, List.of("jitter=1.5"), "jitter: 1.5"),
                Arguments.of(congestion, List.of("link=none", "rate=fast"), "'rate'"),
                Arguments.of(congestion, List.of("only=spike"), "'only'"),
                Arguments.of((Supplier<CommandLine>) Demo::commandLine, List.of("--fast"), "'--fast'"),
                Arguments.of((Supplier<CommandLine>) Demo::commandLine, List.of("--admin-seconds", "-5"),
                        "--admin-seconds: -5 (expected: >= 0)"),
                Arguments.of((Supplier<CommandLine>) FileConsumer::commandLine, List.of(), "'FILE'"),
                Arguments.of((Supplier<CommandLine>) C10kProvider::commandLine, List.of("http", "5000"), "(PORT)"),
                Arguments.of((Supplier<CommandLine>) C10kDubboProvider::commandLine, List.of("20880"), "'MILLIS'"),
                Arguments.of((Supplier<CommandLine>) CongestionProvider::commandLine, List.of("64k"), "(BYTES)"),
                Arguments.of((Supplier<CommandLine>) NetLoad::commandLine, List.of("--system", "grpc", "--out", "x"),
                        "--system: grpc (expected: ferry or dubbo)"),
                Arguments.of((Supplier<CommandLine>) NetLoad::commandLine, List.of("--callers", "0", "--out", "x"),
                        "--callers: 0 (expected: >= 1)"),
                Arguments.of((Supplier<CommandLine>) NetLoad::commandLine, List.of("--at", "soon=true", "--out",
                        "x"), "--at: soon=true (expected: SECOND=COMMAND)"),
                Arguments.of((Supplier<CommandLine>) NetReport::commandLine, List.of("jitter", "--runs", "r", "--out",
                        "o", "--command", "c"), "experiment: jitter"));
    }

    @ParameterizedTest(name = "{1}")
    @MethodSource("mistakes")
    void aWrongFlagOrValueExitsTwoNamingIt(Supplier<CommandLine> commandLine, List<String> args, String named) {
        Run run = Run.of(commandLine, args);

        assertEquals(CommandLine.ExitCode.USAGE, run.exitCode(), run.out() + run.err());
        assertTrue(run.err().contains(named), "'" + named + "' in:\n" + run.err());
    }

    private static List<String> concat(List<String> first, String... more) {
        return Stream.concat(first.stream(), Stream.of(more)).toList();
    }
}
