package io.ferry.rpc.config.interop;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Runs a scenario (a main class on the test class path) in a child JVM inside a network namespace of its own whose
 * only interface is loopback ({@code unshare -n}, root only), where a stock Dubbo provider registers 127.0.0.1 (it
 * will not while the host has another address). A scenario prints its own lines starting {@code SCENARIO} and ends
 * with {@code SCENARIO OK} and exit status 0 when every check passed.
 */
final class LoopbackNamespace {
    private LoopbackNamespace() {
    }

    private static boolean canUnshareNetwork() {
        try {
            Process p = new ProcessBuilder("unshare", "-n", "true").redirectErrorStream(true).start();
            return p.waitFor(10, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (Exception e) {
            return false;
        }
    }

    /**
     * Runs {@code main} with {@code args}, its output in {@code log}; skips the test where no namespace can be made.
     * Returns the scenario's own lines once it ended within 120 s and passed; fails the test with them otherwise.
     */
    static List<String> run(Class<?> main, Path log, String... args) throws Exception {
        assumeTrue(canUnshareNetwork(), "needs root to create a network namespace (unshare -n)");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> command = new ArrayList<>(List.of("unshare", "-n", "--", "sh", "-c",
                "ip link set lo up && exec \"$@\"", "scenario", java, "-Xmx512m", "-cp",
                System.getProperty("java.class.path"), main.getName()));
        command.addAll(List.of(args));
        Process scenario = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        boolean finished = scenario.waitFor(120, TimeUnit.SECONDS);
        if (!finished) {
            scenario.destroyForcibly();
        }
        List<String> lines = Files.readAllLines(log);
        // the scenario's own lines (Dubbo logs a harmless NetUtils warning per call with loopback alone)
        List<String> own = lines.stream().filter(l -> l.startsWith("SCENARIO")).toList();
        String output = String.join("\n", own);
        assertTrue(finished, "the scenario ended within 120 s:\n" + output);
        assertEquals(0, scenario.exitValue(), output);
        assertTrue(lines.contains("SCENARIO OK"), output);
        return own;
    }
}
