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
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A TCP proxy on 127.0.0.1 that forwards each connection to a target, and can start silently dropping everything
 * on the connections it already has, keeping their sockets open: a blackholed path, as a dead router makes one.
 */
final class TcpProxy implements AutoCloseable {
    private final ServerSocket listener;
    private final InetSocketAddress target;
    private final List<Pipe> pipes = new CopyOnWriteArrayList<>();
    final AtomicInteger accepted = new AtomicInteger();

    TcpProxy(InetSocketAddress target) throws IOException {
        this.target = target;
        this.listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread acceptor = new Thread(this::acceptLoop, "tcp-proxy-accept");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    InetSocketAddress address() {
        return new InetSocketAddress(InetAddress.getLoopbackAddress(), listener.getLocalPort());
    }

    /** Every connection open now stops forwarding, in both directions; new connections are forwarded. */
    void blackholeExisting() {
        pipes.forEach(p -> p.blackholed = true);
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

        Pipe(Socket a, Socket b) {
            this.a = a;
            this.b = b;
        }

        void start() {
            pump(a, b);
            pump(b, a);
        }

        private void pump(Socket from, Socket to) {
            Thread t = new Thread(() -> {
                byte[] buf = new byte[8192];
                try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
                    int n;
                    while ((n = in.read(buf)) >= 0) {
                        if (!blackholed) {
                            out.write(buf, 0, n);
                            out.flush();
                        }
                    }
                } catch (IOException e) {
                    // one side closed
                } finally {
                    close();
                }
            }, "tcp-proxy-pump");
            t.setDaemon(true);
            t.start();
        }

        void close() {
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
