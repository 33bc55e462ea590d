package io.ferry.rpc.testkit;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * HTTP as a misbehaving client writes it, over a plain socket: the requests {@code java.net.http.HttpClient} will
 * not send (huge headers, a body that never ends, half a request line). Each exchange reads until the server closes
 * the connection, which every refusal of the admin port does; a read blocks at most 30 s, so a server that never
 * answers fails the test instead of hanging it.
 */
public final class RawHttp implements AutoCloseable {
    private final Socket socket;

    private RawHttp(Socket socket) {
        this.socket = socket;
    }

    /** Connects to {@code host:port}, from any local address. */
    public static RawHttp connect(String host, int port) throws IOException {
        return connect(null, host, port);
    }

    /** Connects to {@code host:port} from {@code localAddress} (null for any). */
    public static RawHttp connect(String localAddress, String host, int port) throws IOException {
        Socket socket = new Socket();
        if (localAddress != null) {
            socket.bind(new InetSocketAddress(localAddress, 0));
        }
        socket.connect(new InetSocketAddress(host, port), 10_000);
        socket.setSoTimeout(30_000);
        return new RawHttp(socket);
    }

    /** Writes {@code text} (ISO-8859-1, as HTTP heads are) and flushes; may be half a request. */
    public RawHttp write(String text) throws IOException {
        return write(text.getBytes(StandardCharsets.ISO_8859_1));
    }

    public RawHttp write(byte[] bytes) throws IOException {
        OutputStream out = socket.getOutputStream();
        out.write(bytes);
        out.flush();
        return this;
    }

    /**
     * Reads until the server closes the connection (a reset after the answer counts as a close) and returns what
     * came.
     */
    public Answer readUntilClosed() throws IOException {
        ByteArrayOutputStream got = new ByteArrayOutputStream();
        InputStream in = socket.getInputStream();
        byte[] buffer = new byte[8192];
        try {
            for (int n; (n = in.read(buffer)) >= 0; ) {
                got.write(buffer, 0, n);
            }
        } catch (SocketException reset) {
            // the server closed with unread request bytes pending: the kernel sends a reset, after the answer
        }
        return Answer.parse(got.toString(StandardCharsets.UTF_8));
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }

    /** What came back: the status (0 when nothing did), the head and the body. */
    public record Answer(int status, String head, String body) {
        static Answer parse(String raw) {
            int end = raw.indexOf("\r\n\r\n");
            String head = end < 0 ? raw : raw.substring(0, end);
            String body = end < 0 ? "" : raw.substring(end + 4);
            int status = raw.startsWith("HTTP/1.1 ") && raw.length() >= 12 ? Integer.parseInt(raw.substring(9, 12))
                    : 0;
            return new Answer(status, head, body);
        }

        /** A header's value, by name in any case, or null. */
        public String header(String name) {
            for (String line : head.split("\r\n")) {
                int colon = line.indexOf(':');
                if (colon > 0 && line.substring(0, colon).trim().toLowerCase(Locale.ROOT)
                        .equals(name.toLowerCase(Locale.ROOT))) {
                    return line.substring(colon + 1).trim();
                }
            }
            return null;
        }
    }
}
