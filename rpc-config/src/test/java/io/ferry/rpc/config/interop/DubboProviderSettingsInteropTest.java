package io.ferry.rpc.config.interop;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A Ferry consumer that sets nothing itself takes two stock Dubbo 3.3.6 providers' settings from their registry
 * URLs: their roundrobin by weight, their timeout (a method's before the service's), their retries; in a network
 * namespace of its own (see {@link LoopbackNamespace}).
 */
class DubboProviderSettingsInteropTest {
    @TempDir
    Path tmp;

    @Test
    void aFerryConsumerTakesADubboProvidersTimeoutRetriesLoadBalanceAndWeight() throws Exception {
        List<String> lines = LoopbackNamespace.run(DubboProviderSettingsScenario.class, tmp.resolve("scenario.log"));
        String output = String.join("\n", lines);
        assertTrue(lines.contains("SCENARIO the Dubbo providers' roundrobin and weights: {heavy=300, light=100}")
                || lines.contains("SCENARIO the Dubbo providers' roundrobin and weights: {light=100, heavy=300}"),
                output);
        assertTrue(lines.contains("SCENARIO the Dubbo providers' method timeout is the call's deadline"), output);
    }
}
