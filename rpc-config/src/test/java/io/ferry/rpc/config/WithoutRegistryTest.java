package io.ferry.rpc.config;

import io.ferry.rpc.config.fixtures.DirectOnlyProcess;
import org.junit.jupiter.api.Test;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * rpc-registry and Micrometer are optional dependencies: a direct-url application runs without them (and ZooKeeper,
 * Curator, a tracer) on the class path at all.
 */
class WithoutRegistryTest {
    @Test
    void aDirectUrlApplicationRunsWithoutTheRegistryOrMicrometerOnTheClassPath() throws Exception {
        String classPath = Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
                .filter(entry -> !entry.contains("rpc-registry") && !entry.contains("zookeeper")
                        && !entry.contains("curator") && !entry.contains("micrometer")
                        && !entry.contains("opentelemetry"))
                .collect(Collectors.joining(File.pathSeparator));
        assertTrue(!classPath.contains("zookeeper"), classPath);
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process child = new ProcessBuilder(java, "-Xmx256m", "-cp", classPath, DirectOnlyProcess.class.getName())
                .redirectErrorStream(true).start();
        String output = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(child.waitFor(60, TimeUnit.SECONDS), output);
        assertEquals(0, child.exitValue(), output);
        assertTrue(output.contains("OK direct"), output);
        assertTrue(output.contains("MICROMETER absent"), output);
        assertTrue(output.contains("METRICS metrics=prometheus: io.micrometer:micrometer-core is not on the class "
                + "path"), output);
        assertTrue(output.contains("REGISTRY registry: zookeeper://127.0.0.1:2181 needs rpc-registry"), output);
        assertTrue(output.contains("OTHER registry: memory://127.0.0.1:1 needs rpc-registry"), output);
        assertTrue(output.contains("EMBEDDED registry: zookeeper://127.0.0.1:2181?embedded=true needs rpc-registry"),
                output);
    }
}
