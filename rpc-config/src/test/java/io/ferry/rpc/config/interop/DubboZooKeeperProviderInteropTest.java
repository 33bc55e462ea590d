package io.ferry.rpc.config.interop;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * A Ferry consumer discovers a stock Dubbo 3.3.6 provider through ZooKeeper. Dubbo refuses to register a loopback
 * address while the host has another one, so the scenario runs in a child JVM inside a network namespace of its
 * own whose only interface is loopback ({@code unshare -n}, root only): ZooKeeper, the Dubbo provider and the Ferry
 * consumer all live there, and nothing leaves 127.0.0.1.
 */
class DubboZooKeeperProviderInteropTest {
    @TempDir
    Path tmp;

    private static boolean canUnshareNetwork() {
        try {
            Process p = new ProcessBuilder("unshare", "-n", "true").redirectErrorStream(true).start();
            return p.waitFor(10, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (Exception e) {
            return false;
        }
    }

    @Test
    void aFerryConsumerFindsAndCallsADubboProviderThroughZooKeeper() throws Exception {
        runScenario();
    }

    @Test
    void withTheSameUsernameAndPasswordAFerryConsumerFindsAndCallsADubboProvider() throws Exception {
        String output = runScenario("credentials");
        assertTrue(output.contains("SCENARIO a client without credentials cannot list"), output);
    }

    /** Runs the scenario in its own network namespace; returns its own lines once it passed. */
    private String runScenario(String... args) throws Exception {
        assumeTrue(canUnshareNetwork(), "needs root to create a network namespace (unshare -n)");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Path log = tmp.resolve("scenario.log");
        List<String> command = new ArrayList<>(List.of("unshare", "-n", "--", "sh", "-c",
                "ip link set lo up && exec \"$@\"", "scenario", java, "-Xmx512m", "-cp",
                System.getProperty("java.class.path"), DubboZooKeeperProviderScenario.class.getName()));
        command.addAll(List.of(args));
        Process scenario = new ProcessBuilder(command)
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        boolean finished = scenario.waitFor(120, TimeUnit.SECONDS);
        if (!finished) {
            scenario.destroyForcibly();
        }
        List<String> lines = Files.readAllLines(log);
        // the scenario's own lines (Dubbo logs a harmless NetUtils warning per call with loopback alone)
        String output = String.join("\n", lines.stream().filter(l -> l.startsWith("SCENARIO")).toList());
        assertTrue(finished, "the scenario ended within 120 s:\n" + output);
        assertEquals(0, scenario.exitValue(), output);
        assertTrue(lines.contains("SCENARIO OK"), output);
        assertTrue(output.contains("SCENARIO dubbo exported [dubbo://127.0.0.1:"), "registered on loopback:\n" + output);
        assertTrue(lines.contains("SCENARIO token: found in ZooKeeper and sent; a wrong one refused as FORBIDDEN"),
                output);
        return output;
    }
}
