package io.ferry.rpc.benchmark.suite;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** A system's provider in a JVM of its own ({@code Bench server}), started with this JVM's class path. */
final class ProviderProcess implements Suite.ProviderHandle {
    /** Both JVMs of a measurement: the same heap, and only warnings in their logs. */
    static final List<String> JVM = List.of("-Xms1g", "-Xmx1g", "-Ddubbo.application.logger=slf4j",
            "-Dorg.slf4j.simpleLogger.log.io.ferry=warn");

    private final Process process;
    private final int port;

    ProviderProcess(String system, List<String> properties) throws IOException {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                .toString()));
        command.addAll(JVM);
        command.addAll(properties);
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), Bench.class.getName(), "server",
                "--system", system, "--host", "127.0.0.1", "--port", Integer.toString(freePort())));
        process = new ProcessBuilder(command).redirectErrorStream(true).start();
        BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(),
                StandardCharsets.UTF_8));
        StringBuilder seen = new StringBuilder();
        String line;
        int found = -1;
        while ((line = out.readLine()) != null) {
            if (line.startsWith("READY ")) {
                found = Integer.parseInt(line.substring(6).trim());
                break;
            }
            seen.append(line).append('\n');
        }
        if (found < 0) {
            process.destroyForcibly();
            throw new IOException("the " + system + " provider ended before it was ready:\n" + seen);
        }
        port = found;
        Thread drain = new Thread(() -> {
            try {
                while (out.readLine() != null) {
                    // its log is not part of the results
                }
            } catch (IOException e) {
                // ended
            }
        }, "provider-output");
        drain.setDaemon(true);
        drain.start();
    }

    /** A port free now on 127.0.0.1 (Dubbo cannot be asked for port 0). */
    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    @Override
    public String host() {
        return "127.0.0.1";
    }

    @Override
    public int port() {
        return port;
    }

    @Override
    public long pid() {
        return process.pid();
    }

    @Override
    public void close() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            process.waitFor(10, TimeUnit.SECONDS);
        }
    }
}
