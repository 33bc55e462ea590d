package io.ferry.rpc.benchmark;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A Java main of this module in a JVM of its own, on this JVM's class path, that prints {@code READY <port>} once it
 * serves; its later output is drained and dropped. Closing it stops the process.
 */
public final class ReadyProcess implements AutoCloseable {
    private final Process process;
    private final int port;

    /**
     * Starts {@code mainClass} with {@code jvmOptions} and {@code args}, and waits for its READY line.
     *
     * @throws IOException when it ends first, with what it printed
     */
    public ReadyProcess(List<String> jvmOptions, String mainClass, List<String> args) throws IOException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(jvmOptions);
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), mainClass));
        command.addAll(args);
        process = new ProcessBuilder(command).redirectErrorStream(true).start();
        BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(),
                StandardCharsets.UTF_8));
        StringBuilder seen = new StringBuilder();
        int found = -1;
        String line;
        while ((line = out.readLine()) != null) {
            if (line.startsWith("READY ")) {
                found = Integer.parseInt(line.substring(6).trim());
                break;
            }
            seen.append(line).append('\n');
        }
        if (found < 0) {
            process.destroyForcibly();
            throw new IOException(mainClass + " " + args + " ended before it was ready:\n" + seen);
        }
        port = found;
        Thread drain = new Thread(() -> {
            try {
                while (out.readLine() != null) {
                    // its log is not part of any result
                }
            } catch (IOException e) {
                // the process ended
            }
        }, "ready-process-output");
        drain.setDaemon(true);
        drain.start();
    }

    public int port() {
        return port;
    }

    public long pid() {
        return process.pid();
    }

    /** Stops it (SIGTERM, then SIGKILL after 10 s) and waits for it. */
    @Override
    public void close() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            process.waitFor(10, TimeUnit.SECONDS);
        }
    }
}
