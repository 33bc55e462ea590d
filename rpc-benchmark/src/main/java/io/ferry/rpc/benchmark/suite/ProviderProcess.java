package io.ferry.rpc.benchmark.suite;

import io.ferry.rpc.benchmark.ReadyProcess;
import io.ferry.rpc.benchmark.suite.systems.Systems;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;

/** A system's provider in a JVM of its own ({@code Bench server}), started with this JVM's class path. */
final class ProviderProcess implements Suite.ProviderHandle {
    /** Both JVMs of a measurement: the same heap, and only warnings in their logs. */
    static final List<String> JVM = List.of("-Xms1g", "-Xmx1g", "-Ddubbo.application.logger=slf4j",
            "-Dorg.slf4j.simpleLogger.log.io.ferry=warn");

    private final ReadyProcess process;

    ProviderProcess(String system, List<String> properties) throws IOException {
        List<String> jvm = new ArrayList<>(JVM);
        jvm.addAll(properties);
        jvm.addAll(Systems.jvmOptions(system));
        process = new ReadyProcess(jvm, Bench.class.getName(), List.of("server", "--system", system, "--host",
                "127.0.0.1", "--port", Integer.toString(freePort())));
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
        return process.port();
    }

    @Override
    public long pid() {
        return process.pid();
    }

    @Override
    public void close() throws InterruptedException {
        process.close();
    }
}
