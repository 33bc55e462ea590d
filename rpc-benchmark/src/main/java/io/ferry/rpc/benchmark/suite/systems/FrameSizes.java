package io.ferry.rpc.benchmark.suite.systems;

import io.ferry.rpc.benchmark.suite.workload.UserService;
import io.ferry.rpc.benchmark.suite.workload.Users;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * The bytes one call of each workload method puts on the wire, each way, counted by a relay between a consumer and a
 * provider in this JVM. Ferry's are what the echo ceiling sends and answers, so that it moves exactly the same bytes
 * as the systems it bounds; any system that can bind port 0 (ferry, grpc) can be counted, to compare what each puts
 * on the wire for the same values:
 * <pre>
 *   java -cp "rpc-benchmark/target/classes:$(cat rpc-benchmark/target/classpath.txt)" \
 *       io.ferry.rpc.benchmark.suite.systems.FrameSizes ferry grpc
 * </pre>
 */
public final class FrameSizes {
    /** Request and response bytes of one call. */
    public record Size(int request, int response) {
    }

    private static final int CALLS = 50;

    private FrameSizes() {
    }

    /** Ferry's bytes per call, by method. */
    public static Map<String, Size> measure() {
        return measure("ferry");
    }

    /** A system's bytes per call, by method, averaged over {@value #CALLS} calls after a first one. */
    public static Map<String, Size> measure(String system) {
        try (Provider provider = Systems.provider(system, "127.0.0.1", 0, Tuning.DEFAULTS);
             Relay relay = new Relay(provider.port());
             io.ferry.rpc.benchmark.suite.systems.Consumer consumer = Systems.consumer(system, "127.0.0.1",
                     relay.port(), Tuning.DEFAULTS)) {
            UserService users = consumer.service();
            Map<String, Size> sizes = new LinkedHashMap<>();
            sizes.put("existUser", size(relay, u -> users.existUser("ada1@example.com")));
            sizes.put("createUser", size(relay, u -> users.createUser(Users.user(1))));
            sizes.put("getUser", size(relay, u -> users.getUser(1)));
            sizes.put("listUser", size(relay, u -> users.listUser(1)));
            return sizes;
        } catch (IOException e) {
            throw new IllegalStateException("cannot measure frame sizes: " + e, e);
        }
    }

    /** Prints each system's bytes per call as a Markdown table: request and answer bytes, by method. */
    public static void main(String[] args) {
        StringBuilder table = new StringBuilder("| method |");
        StringBuilder rule = new StringBuilder("|---|");
        Map<String, Map<String, Size>> bySystem = new LinkedHashMap<>();
        for (String system : args.length == 0 ? new String[] {"ferry"} : args) {
            bySystem.put(system, measure(system));
            table.append(' ').append(system).append(" request · answer bytes |");
            rule.append("---:|");
        }
        table.append('\n').append(rule).append('\n');
        for (String method : bySystem.values().iterator().next().keySet()) {
            table.append("| ").append(method).append(" |");
            bySystem.values().forEach(sizes -> table.append(' ').append(sizes.get(method).request()).append(" · ")
                    .append(sizes.get(method).response()).append(" |"));
            table.append('\n');
        }
        System.out.print(table);
    }

    private static Size size(Relay relay, Consumer<Void> call) {
        call.accept(null); // the first call may carry what later ones do not
        relay.reset();
        for (int i = 0; i < CALLS; i++) {
            call.accept(null);
        }
        return new Size((int) (relay.up.get() / CALLS), (int) (relay.down.get() / CALLS));
    }

    /** Forwards one connection to the provider, counting bytes each way. */
    private static final class Relay implements AutoCloseable {
        private final ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
        final AtomicLong up = new AtomicLong();
        final AtomicLong down = new AtomicLong();
        private final int target;

        Relay(int target) throws IOException {
            this.target = target;
            Thread accept = new Thread(this::accept, "frame-size-relay");
            accept.setDaemon(true);
            accept.start();
        }

        int port() {
            return server.getLocalPort();
        }

        void reset() {
            up.set(0);
            down.set(0);
        }

        private void accept() {
            try {
                while (!server.isClosed()) {
                    Socket from = server.accept();
                    Socket to = new Socket(InetAddress.getLoopbackAddress(), target);
                    pump(from.getInputStream(), to.getOutputStream(), up);
                    pump(to.getInputStream(), from.getOutputStream(), down);
                }
            } catch (IOException e) {
                // closed
            }
        }

        private static void pump(InputStream in, OutputStream out, AtomicLong counter) {
            Thread t = new Thread(() -> {
                byte[] buffer = new byte[64 * 1024];
                try {
                    int n;
                    while ((n = in.read(buffer)) > 0) {
                        counter.addAndGet(n); // counted before it is passed on, so a finished call is all counted
                        out.write(buffer, 0, n);
                        out.flush();
                    }
                } catch (IOException e) {
                    // one side closed
                }
            }, "frame-size-pump");
            t.setDaemon(true);
            t.start();
        }

        @Override
        public void close() throws IOException {
            server.close();
        }
    }
}
