package io.ferry.rpc.benchmark.c10k;

import io.ferry.rpc.Result;
import io.ferry.rpc.benchmark.Cli;
import io.ferry.rpc.remoting.Server;
import io.ferry.rpc.remoting.ServerOptions;
import io.ferry.rpc.remoting.ServiceExport;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * The provider process of the C10K experiment: serves {@link Ping} on 127.0.0.1, prints {@code READY <port>} once
 * bound, then every second {@code HB <heartbeats answered that second> <open connections>}. Runs until killed.
 * Usage: {@code C10kProvider <port> <heartbeat ms>}.
 */
@Command(name = "C10kProvider", description = "Serves Ping on 127.0.0.1, prints READY <port>, then every second "
        + "HB <heartbeats answered> <open connections>, until killed: the C10K experiment's provider, which "
        + "C10kExperiment starts.")
public final class C10kProvider implements Callable<Integer> {
    @Mixin
    private Cli.HelpOption help;

    @Parameters(index = "0", paramLabel = "PORT", description = "The TCP port to bind; 0 for any free one.")
    private int port;

    @Parameters(index = "1", paramLabel = "MILLIS", description = "Heartbeat interval, in ms.")
    private long heartbeatMillis;

    private C10kProvider() {
    }

    public static void main(String[] args) {
        System.exit(commandLine().execute(args));
    }

    /** The command line {@link #main} parses and runs. */
    public static CommandLine commandLine() {
        return Cli.of(new C10kProvider());
    }

    @Override
    public Integer call() throws InterruptedException {
        Server server = Server.start(ServerOptions.builder().host("127.0.0.1").port(port)
                .heartbeat(Duration.ofMillis(heartbeatMillis)).build());
        server.export(ServiceExport.of(Ping.class,
                invocation -> CompletableFuture.completedFuture(Result.of(invocation.arguments()[0]))));
        System.out.println("READY " + server.port());
        System.out.flush();
        long last = 0;
        long next = System.nanoTime();
        while (true) {
            next += TimeUnit.SECONDS.toNanos(1);
            TimeUnit.NANOSECONDS.sleep(Math.max(0, next - System.nanoTime())); // a reporting tick, not a test
            long heartbeats = server.heartbeatsAnswered();
            System.out.println("HB " + (heartbeats - last) + " " + server.connections());
            System.out.flush();
            last = heartbeats;
        }
    }
}
