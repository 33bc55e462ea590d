package io.ferry.rpc.benchmark.suite;

import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** What {@code Bench suite}'s flags make of a profile, and how its report quotes them; nothing is run. */
class BenchCommandLineTest {
    private static Bench.SuiteCommand suite(String... args) {
        CommandLine cli = Bench.commandLine();
        cli.parseArgs(args);
        return cli.getSubcommands().get("suite").getCommand();
    }

    @Test
    void withoutFlagsTheSuiteRunsTheQuickProfileOnEverySystem() {
        assertEquals(Profile.QUICK, suite("suite").profile());
    }

    @Test
    void aFlagOverridesOnlyItsFigureOfTheProfile() {
        Profile p = suite("suite", "--profile", "full", "--methods", "getUser,listUser", "--rounds", "1",
                "--latency", "false", "--windows", "32", "--measureSeconds=4").profile();

        assertEquals(new Profile("full", 6, 5, 3, 4, 1, 20, List.of("getUser", "listUser"), false, List.of(32)), p);
    }

    @Test
    void theReportQuotesTheFlagsAsGivenAfterTheProfile() {
        Bench.SuiteCommand suite = suite("suite", "--systems", "ferry,ferry@ferry.protocol.dispatcher=direct",
                "--profile", "quick", "--methods", "getUser", "--rounds=5");

        assertEquals("bash rpc-benchmark/suite.sh quick --systems ferry,ferry@ferry.protocol.dispatcher=direct "
                + "--methods getUser --rounds 5", suite.command());
    }

    @Test
    void theTlsRowsAreSystemsLikeAnyAndWriteAReportOfTheirOwn() {
        Bench.SuiteCommand suite = suite("suite", "--profile", "quick", "--systems",
                "ferry,ferry-tls-jdk,ferry-tls-openssl,dubbo-tls", "--methods", "getUser,listUser", "--report",
                "suite-tls");

        assertEquals("bash rpc-benchmark/suite.sh quick --systems ferry,ferry-tls-jdk,ferry-tls-openssl,dubbo-tls "
                + "--methods getUser,listUser --report suite-tls", suite.command());
    }

    @Test
    void aRunWritesIntoTheBuildOutputUnlessToldToPublish() {
        assertEquals(Path.of("rpc-benchmark/target/reports"), suite("suite").reportDirectory());
        assertEquals(Path.of("/tmp/run1"), suite("suite", "--out", "/tmp/run1").reportDirectory());
        assertEquals(Path.of("rpc-benchmark/results"), suite("suite", "--publish").reportDirectory());
    }

    @Test
    void publishingAndAnotherDirectoryAreOneTooMany() {
        CommandLine.ParameterException e = assertThrows(CommandLine.ParameterException.class,
                () -> suite("suite", "--publish", "--out", "x").reportDirectory());
        assertEquals("--out x and --publish (expected: one of them; --publish writes to rpc-benchmark/results)",
                e.getMessage());
    }

    @Test
    void jvmArgsReachEveryJvmInOrderAndTheReportQuotesThem() {
        Bench.SuiteCommand suite = suite("suite", "--profile", "smoke", "--jvm-arg", "-Dbench.test.flag=on",
                "--jvm-arg", "-XX:+UseSerialGC", "--publish");

        assertEquals(List.of("-Dbench.test.flag=on", "-XX:+UseSerialGC"), suite.jvmArgs());
        assertEquals("on", System.getProperty("bench.test.flag"), "a -D one is set in this JVM too");
        assertEquals("bash rpc-benchmark/suite.sh smoke --jvm-arg -Dbench.test.flag=on --jvm-arg -XX:+UseSerialGC "
                + "--publish", suite.command());
        System.clearProperty("bench.test.flag");
    }
}
