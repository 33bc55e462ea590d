package io.ferry.rpc.remoting;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A TCP proxy on 127.0.0.1 that forwards each connection to a target, and can start silently dropping everything
 * on the connections it already has, keeping their sockets open: a blackholed path, as a dead router makes one.
 */
public final class TcpProxy implements AutoCloseable {
    private final ServerSocket listener;
    private final InetSocketAddress target;
    private final List<Pipe> pipes = new CopyOnWriteArrayList<>();
    final AtomicInteger accepted = new AtomicInteger();

    public TcpProxy(InetSocketAddress target) throws IOException {
        this.target = target;
        this.listener = new ServerSocket();
        // small, so that a stalled connection backs up into its client after a few dozen KiB, not megabytes
        listener.setReceiveBufferSize(32 * 1024);
        listener.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 50);
        Thread acceptor = new Thread(this::acceptLoop, "tcp-proxy-accept");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    public InetSocketAddress address() {
        return new InetSocketAddress(InetAddress.getLoopbackAddress(), listener.getLocalPort());
    }

    /** Every connection open now stops forwarding, in both directions; new connections are forwarded. */
    void blackholeExisting() {
        pipes.forEach(p -> p.blackholed = true);
    }

    /**
     * Every connection open now stops reading what its client sends (answers still flow back), as a provider that
     * has stopped reading does; new connections are forwarded. Until {@link #resume()}.
     */
    public void stallExisting() {
        pipes.forEach(Pipe::stall);
    }

    /**
     * Waits until every stalled connection has stopped reading: each takes at most one more chunk after the stall,
     * so from then on nothing the client sends leaves its socket buffers.
     */
    public void awaitStalled() throws InterruptedException {
        for (Pipe pipe : pipes) {
            CountDownLatch parked = pipe.parked;
            if (parked != null && !parked.await(10, TimeUnit.SECONDS)) {
                throw new IllegalStateException("a stalled connection kept reading");
            }
        }
    }

    /** Stalled connections read again. */
    public void resume() {
        pipes.forEach(Pipe::resume);
    }

    private void acceptLoop() {
        while (!listener.isClosed()) {
            try {
                Socket client = listener.accept();
                accepted.incrementAndGet();
                Socket server = new Socket(target.getAddress(), target.getPort());
                Pipe pipe = new Pipe(client, server);
                pipes.add(pipe);
                pipe.start();
            } catch (IOException e) {
                return;
            }
        }
    }

    private static final class Pipe {
        final Socket a;
        final Socket b;
        volatile boolean blackholed;
        volatile boolean stalled;
        volatile CountDownLatch parked;

        Pipe(Socket a, Socket b) {
            this.a = a;
            this.b = b;
        }

        void start() {
            pump(a, b, true);
            pump(b, a, false);
        }

        synchronized void stall() {
            parked = new CountDownLatch(1);
            stalled = true;
        }

        synchronized void resume() {
            stalled = false;
            notifyAll();
        }

        private synchronized void awaitUnstalled() throws InterruptedException {
            while (stalled && !a.isClosed()) {
                parked.countDown();
                wait();
            }
        }

        private void pump(Socket from, Socket to, boolean upstream) {
            Thread t = new Thread(() -> {
                byte[] buf = new byte[8192];
                try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
                    int n;
                    while (true) {
                        if (upstream) {
                            awaitUnstalled();
                        }
                        if ((n = in.read(buf)) < 0) {
                            break;
                        }
                        if (!blackholed) {
                            out.write(buf, 0, n);
                            out.flush();
                        }
                    }
                } catch (IOException e) {
                    // one side closed
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                } finally {
                    close();
                }
            }, "tcp-proxy-pump");
            t.setDaemon(true);
            t.start();
        }

        void close() {
            resume();
            try {
                a.close();
                b.close();
            } catch (IOException ignored) {
                // closing anyway
            }
        }
    }

    @Override
    public void close() throws IOException {
        listener.close();
        pipes.forEach(Pipe::close);
    }
}
