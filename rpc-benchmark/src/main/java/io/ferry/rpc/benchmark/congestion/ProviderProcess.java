package io.ferry.rpc.benchmark.congestion;

import io.ferry.rpc.benchmark.ReadyProcess;

import java.io.IOException;
import java.util.List;

/** A {@link CongestionProvider} in a JVM of its own, started with this JVM's classpath, stopped on close. */
final class ProviderProcess implements AutoCloseable {
    private final ReadyProcess process;

    ProviderProcess(int socketBuffer) throws IOException {
        process = new ReadyProcess(List.of("-Xmx1g", "-XX:MaxDirectMemorySize=1g", "-XX:+UseParallelGC"),
                CongestionProvider.class.getName(), List.of(Integer.toString(socketBuffer)));
    }

    int port() {
        return process.port();
    }

    long pid() {
        return process.pid();
    }

    @Override
    public void close() throws InterruptedException {
        process.close();
    }
}
