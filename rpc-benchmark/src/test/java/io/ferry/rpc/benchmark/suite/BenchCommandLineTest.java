package io.ferry.rpc.benchmark.suite;

import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

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
}
