package io.ferry.rpc.config.interop;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A Ferry consumer discovers a stock Dubbo 3.3.6 provider through ZooKeeper. Dubbo refuses to register a loopback
 * address while the host has another one, so the scenario runs in a child JVM inside a network namespace of its
 * own whose only interface is loopback ({@code unshare -n}, root only): ZooKeeper, the Dubbo provider and the Ferry
 * consumer all live there, and nothing leaves 127.0.0.1.
 */
class DubboZooKeeperProviderInteropTest {
    @TempDir
    Path tmp;

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
        String output = String.join("\n", LoopbackNamespace.run(DubboZooKeeperProviderScenario.class,
                tmp.resolve("scenario.log"), args));
        List<String> lines = output.lines().toList();
        assertTrue(output.contains("SCENARIO dubbo exported [dubbo://127.0.0.1:"), "registered on loopback:\n" + output);
        assertTrue(lines.contains("SCENARIO token: found in ZooKeeper and sent; a wrong one refused as FORBIDDEN"),
                output);
        return output;
    }
}
