package io.ferry.rpc.benchmark.congestion;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** A {@link CongestionProvider} in a JVM of its own, started with this JVM's classpath, killed on close. */
final class ProviderProcess implements AutoCloseable {
    private final Process process;
    private final int port;

    ProviderProcess(int socketBuffer) throws IOException {
        List<String> command = new ArrayList<>(List.of(
                Path.java(), "-Xmx1g", "-XX:MaxDirectMemorySize=1g", "-XX:+UseParallelGC",
                "-cp", System.getProperty("java.class.path"),
                CongestionProvider.class.getName(), Integer.toString(socketBuffer)));
        process = new ProcessBuilder(command).redirectErrorStream(true).start();
        BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(),
                StandardCharsets.UTF_8));
        String line;
        int found = -1;
        while ((line = out.readLine()) != null) {
            if (line.startsWith("READY ")) {
                found = Integer.parseInt(line.substring(6).trim());
                break;
            }
        }
        if (found < 0) {
            process.destroyForcibly();
            throw new IOException("the provider process ended before it was ready");
        }
        port = found;
        Thread drain = new Thread(() -> {
            try {
                while (out.readLine() != null) {
                    // its log lines are not part of the results
                }
            } catch (IOException e) {
                // the process ended
            }
        }, "provider-output");
        drain.setDaemon(true);
        drain.start();
    }

    int port() {
        return port;
    }

    long pid() {
        return process.pid();
    }

    @Override
    public void close() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor(10, TimeUnit.SECONDS);
    }

    /** The java binary of this JVM. */
    private static final class Path {
        static String java() {
            return java.nio.file.Path.of(System.getProperty("java.home"), "bin", "java").toString();
        }
    }
}
