package io.ferry.rpc.benchmark.congestion;

import com.alibaba.com.caucho.hessian.io.Hessian2Output;
import io.ferry.rpc.benchmark.Latencies;
import io.ferry.rpc.config.ApplicationConfig;
import io.ferry.rpc.config.Ferry;
import io.ferry.rpc.config.ReferenceConfig;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A consumer that writes requests and never reads an answer, beside a polite one: how much memory the abuser
 * costs the provider, and whether the polite consumer's p99 holds. The polite consumer calls
 * {@code fetch(1 KiB, 0 ms)} from 4 threads for {@code seconds} alone, then for {@code seconds} while the abuser
 * writes up to 2,000,000 requests on a raw socket.
 */
final class AbuserRun {
    static final int ABUSER_REQUESTS = 2_000_000;

    record Outcome(long rssBeforeBytes, long rssAfterBytes, long abuserRequestsWritten, long politeP99AloneMicros,
                   long politeP99BesideMicros, long politeCallsAlone, long politeCallsBeside, long politeFailures) {
    }

    private final int seconds;
    private volatile String firstFailure;

    AbuserRun(int seconds) {
        this.seconds = seconds;
    }

    Outcome run() throws Exception {
        try (ProviderProcess provider = new ProviderProcess(0)) {
            Ferry ferry = Ferry.builder().application(ApplicationConfig.of("polite")).shutdownHook(false).build();
            try {
                Blob blob = ferry.reference(ReferenceConfig.builder(Blob.class)
                        .url("dubbo://127.0.0.1:" + provider.port()).timeout(Duration.ofSeconds(1)).build());
                polite(blob); // warm both JVMs up: the heap settles at its working size
                long[] alone = polite(blob);
                long rssBefore = blob.stats()[5];
                long[] beside;
                long written;
                try (SocketChannel abuser = SocketChannel.open(new InetSocketAddress("127.0.0.1", provider.port()))) {
                    Writer writer = new Writer(abuser, TimeUnit.SECONDS.toNanos(seconds));
                    Thread thread = new Thread(writer, "abuser");
                    thread.start();
                    beside = polite(blob);
                    thread.join();
                    written = writer.written;
                    long rssAfter = blob.stats()[5];
                    if (firstFailure != null) {
                        System.out.println("first polite failure beside the abuser: " + firstFailure);
                    }
                    return new Outcome(rssBefore, rssAfter, written, alone[0], beside[0], alone[1], beside[1],
                            alone[2] + beside[2]);
                }
            } finally {
                ferry.close();
            }
        }
    }

    /** p99 in µs, calls and failures of 4 closed-loop callers for {@code seconds}. */
    private long[] polite(Blob blob) throws InterruptedException {
        firstFailure = null;
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        Latencies latencies = new Latencies();
        AtomicLong failures = new AtomicLong();
        Thread[] callers = new Thread[4];
        for (int t = 0; t < callers.length; t++) {
            callers[t] = new Thread(() -> {
                while (System.nanoTime() < end) {
                    long started = System.nanoTime();
                    try {
                        blob.fetch(1024, 0);
                        latencies.record(TimeUnit.NANOSECONDS.toMicros(System.nanoTime() - started));
                    } catch (RuntimeException e) {
                        failures.incrementAndGet();
                        if (firstFailure == null) {
                            firstFailure = e.toString();
                        }
                    }
                }
            });
            callers[t].start();
        }
        for (Thread caller : callers) {
            caller.join();
        }
        return new long[] {latencies.percentile(99), latencies.count(), failures.get()};
    }

    /** Writes fetch(1 KiB, 0) requests without ever reading, until 2,000,000 are written or time is up. */
    private static final class Writer implements Runnable {
        private final SocketChannel channel;
        private final long forNanos;
        volatile long written;

        Writer(SocketChannel channel, long forNanos) {
            this.channel = channel;
            this.forNanos = forNanos;
        }

        @Override
        public void run() {
            try {
                byte[] one = request();
                int perBatch = 512;
                byte[] batch = new byte[one.length * perBatch];
                for (int i = 0; i < perBatch; i++) {
                    System.arraycopy(one, 0, batch, i * one.length, one.length);
                }
                long end = System.nanoTime() + forNanos;
                channel.configureBlocking(false);
                try (Selector selector = Selector.open()) {
                    channel.register(selector, SelectionKey.OP_WRITE);
                    long requests = 0;
                    outer:
                    while (requests < ABUSER_REQUESTS) {
                        ByteBuffer buffer = ByteBuffer.wrap(batch);
                        while (buffer.hasRemaining()) {
                            long left = TimeUnit.NANOSECONDS.toMillis(end - System.nanoTime());
                            if (left <= 0) {
                                written = requests + buffer.position() / one.length;
                                break outer;
                            }
                            if (channel.write(buffer) == 0) {
                                selector.selectedKeys().clear();
                                selector.select(left);
                            }
                        }
                        requests += perBatch;
                        written = requests;
                    }
                }
            } catch (IOException e) {
                // the provider closed the connection (its idle close): what was written is counted
            }
        }

        /** One fetch(1024, 0) request frame, as any Dubbo consumer writes it. */
        private static byte[] request() throws IOException {
            ByteArrayOutputStream body = new ByteArrayOutputStream();
            Hessian2Output out = new Hessian2Output(body);
            out.writeString("2.0.2");
            out.writeString(Blob.class.getName());
            out.writeString("0.0.0");
            out.writeString("fetch");
            out.writeString("II");
            out.writeInt(1024);
            out.writeInt(0);
            out.writeObject(Map.of("path", Blob.class.getName(), "interface", Blob.class.getName(),
                    "version", "0.0.0", "timeout", "60000"));
            out.flush();
            byte[] b = body.toByteArray();
            ByteBuffer frame = ByteBuffer.allocate(16 + b.length);
            frame.putShort((short) 0xdabb).put((byte) 0xC2).put((byte) 0).putLong(1).putInt(b.length).put(b);
            return frame.array();
        }
    }
}
