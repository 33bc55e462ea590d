package io.ferry.rpc.remoting;

import io.ferry.rpc.Result;
import io.ferry.rpc.remoting.internal.codec.Frame;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A consumer that writes requests and does not read the answers, over a real socket: the provider stops reading
 * from it once its answers pile up past the high water mark, so what it holds for that connection stays bounded,
 * and other connections are served all along. Once it reads, reading from it resumes and every request is answered.
 */
class BackPressureTest {
    private static final String ANSWER = "x".repeat(1024);
    private static final int MAX_REQUESTS = 200_000;

    @RegisterExtension
    final ClientExtension clients = new ClientExtension();
    private Server server;

    @BeforeEach
    void start() {
        server = Server.start(ServerOptions.builder().host("127.0.0.1").port(0).threads(8).queues(1_000).build());
        server.export(ServiceExport.of(Greeter.class,
                invocation -> CompletableFuture.completedFuture(Result.of(ANSWER))));
    }

    @AfterEach
    void stop() {
        server.close();
    }

    /**
     * Writes hello requests without reading an answer until the provider has stopped reading them: its connection
     * has turned unwritable and the writes have made no progress for half a second since. A pause while the provider
     * works through what it has read, with its connection still writable, is not that (the socket buffers on
     * loopback take tens of megabytes of answers before they fill). Bounded by a request cap and a deadline.
     */
    private long writeWithoutReading(SocketChannel abuser, int abuserPort) throws IOException {
        byte[] one = RawPeer.frame(1, RawPeer.body(Greeter.class.getName(), "hello", "Ljava/lang/String;",
                RawPeer.objects("abuse", RawPeer.attachments())));
        int perBatch = 256;
        byte[] batch = new byte[one.length * perBatch];
        for (int i = 0; i < perBatch; i++) {
            System.arraycopy(one, 0, batch, i * one.length, one.length);
        }
        abuser.configureBlocking(false);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        long requests = 0;
        try (Selector selector = Selector.open()) {
            abuser.register(selector, SelectionKey.OP_WRITE);
            while (requests < MAX_REQUESTS) {
                ByteBuffer buffer = ByteBuffer.wrap(batch);
                while (buffer.hasRemaining()) {
                    if (abuser.write(buffer) == 0) {
                        long unwritableBefore = unwritableNanos(abuserPort);
                        long waitStarted = System.nanoTime();
                        selector.selectedKeys().clear();
                        boolean noProgress = selector.select(500) == 0;
                        long waited = System.nanoTime() - waitStarted;
                        boolean unwritableAllAlong = unwritableNanos(abuserPort) - unwritableBefore >= waited;
                        if (noProgress && (unwritableAllAlong || System.nanoTime() > deadline)) {
                            return requests + buffer.position() / one.length;
                        }
                    }
                }
                requests += perBatch;
            }
        }
        return requests;
    }

    private Optional<ConnectionInfo> connectionFrom(int port) {
        return server.connectionView().connections().stream()
                .filter(c -> c.remote().endsWith(":" + port)).findFirst();
    }

    private long unwritableNanos(int port) {
        return connectionFrom(port).map(c -> c.unwritableTime().toNanos()).orElse(0L);
    }

    /** Reads answer frames until {@code expected} have come whole; fails after 10 s without a byte. */
    private static long readAnswers(SocketChannel consumer, long expected) throws IOException {
        ByteBuffer header = ByteBuffer.allocate(16);
        ByteBuffer scratch = ByteBuffer.allocate(64 * 1024);
        ByteBuffer body = scratch;
        long answers = 0;
        try (Selector selector = Selector.open()) {
            consumer.register(selector, SelectionKey.OP_READ);
            while (answers < expected) {
                ByteBuffer into = header.hasRemaining() ? header : body;
                int read = consumer.read(into);
                assertTrue(read >= 0, "closed after " + answers + " answers");
                if (read == 0) {
                    selector.selectedKeys().clear();
                    assertTrue(selector.select(10_000) > 0, "nothing more to read after " + answers + " answers");
                    continue;
                }
                if (into == header && !header.hasRemaining()) {
                    int length = header.getInt(12);
                    body = length <= scratch.capacity() ? scratch.clear().limit(length) : ByteBuffer.allocate(length);
                }
                if (!header.hasRemaining() && !body.hasRemaining()) {
                    answers++;
                    header.clear();
                }
            }
        }
        return answers;
    }

    @Test
    void aConsumerThatNeverReadsIsNoLongerReadFromAndOthersAreServed() throws Exception {
        try (SocketChannel abuser = SocketChannel.open(server.address())) {
            int abuserPort = ((InetSocketAddress) abuser.getLocalAddress()).getPort();
            long sent = writeWithoutReading(abuser, abuserPort);

            ProviderEndpoint polite = clients.direct(server.address(), ClientOptions.defaults());
            for (int i = 0; i < 50; i++) {
                assertEquals(ANSWER, ClientExtension.call(polite, "polite " + i));
            }

            ConnectionInfo abused = connectionFrom(abuserPort).orElseThrow();
            assertTrue(sent < MAX_REQUESTS, "the provider stopped reading after " + sent + " requests");
            // 64 KiB in Netty's buffer, 256 KiB in Ferry's queue, and an answer of ~1 KiB per request the pool
            // admitted (8 running, 1,000 queued): about 1.4 MiB at most
            assertTrue(abused.queuedBytes() <= 4 * 1024 * 1024,
                    "answers held for the abuser: " + abused.queuedBytes() + " bytes\n" + server.connectionView());
            assertTrue(abused.unwritableTime().compareTo(Duration.ofMillis(500)) >= 0,
                    "unwritable all the while its writes made no progress\n" + server.connectionView());
            TransportStats traffic = server.transportStats();
            assertTrue(traffic.backPressurePauses() >= 1, "reading the abuser paused, and counted: " + traffic);
            assertTrue(traffic.bytesRead() > 0 && traffic.bytesWritten() > 0, traffic.toString());

            assertEquals(sent, readAnswers(abuser, sent), "once it reads, every request it sent is answered");
        }
    }
}
