package io.ferry.rpc.benchmark.c10k;

import io.ferry.rpc.Result;
import io.ferry.rpc.remoting.Server;
import io.ferry.rpc.remoting.ServerOptions;
import io.ferry.rpc.remoting.ServiceExport;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * The provider process of the C10K experiment: serves {@link Ping} on 127.0.0.1, prints {@code READY <port>} once
 * bound, then every second {@code HB <heartbeats answered that second> <open connections>}. Runs until killed.
 * Usage: {@code C10kProvider <port> <heartbeat ms>}.
 */
public final class C10kProvider {
    private C10kProvider() {
    }

    public static void main(String[] args) throws Exception {
        int port = Integer.parseInt(args[0]);
        long heartbeatMillis = Long.parseLong(args[1]);
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
