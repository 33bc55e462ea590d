package io.ferry.rpc.config.interop;

import com.alibaba.com.caucho.hessian.io.Hessian2Input;
import io.ferry.rpc.GenericService;
import io.ferry.rpc.config.ApplicationConfig;
import io.ferry.rpc.config.Ferry;
import io.ferry.rpc.config.ReferenceConfig;
import org.apache.dubbo.config.bootstrap.DubboBootstrap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

/**
 * A Ferry generic call is the request a stock Dubbo 3.3.6 generic consumer sends: both call the same raw socket on
 * 127.0.0.1, which answers heartbeats and answers every call with a null value, and the two request bodies are
 * compared field by field.
 */
class GenericWireInteropTest {
    private static final String SERVICE = "com.acme.Catalog"; // on neither class path
    private static final String[] TYPES = {"long", "com.acme.Query", "java.util.List"};

    private ServerSocket server;
    private final BlockingQueue<byte[]> requests = new LinkedBlockingQueue<>();
    private final List<Socket> accepted = new ArrayList<>();
    private Thread acceptor;

    @BeforeEach
    void listen() throws IOException {
        server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        acceptor = new Thread(this::accept, "raw-provider");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    @AfterEach
    void close() throws IOException {
        server.close();
        synchronized (accepted) {
            for (Socket socket : accepted) {
                socket.close();
            }
        }
    }

    private void accept() {
        while (!server.isClosed()) {
            try {
                Socket socket = server.accept();
                synchronized (accepted) {
                    accepted.add(socket);
                }
                Thread reader = new Thread(() -> serve(socket), "raw-connection");
                reader.setDaemon(true);
                reader.start();
            } catch (IOException closed) {
                return;
            }
        }
    }

    /** Echoes heartbeats; answers every two-way request with flag 2 (a null value); keeps each request's body. */
    private void serve(Socket socket) {
        try (DataInputStream in = new DataInputStream(socket.getInputStream());
             DataOutputStream out = new DataOutputStream(socket.getOutputStream())) {
            while (true) {
                short magic = in.readShort();
                assertEquals((short) 0xdabb, magic);
                int flag = in.readUnsignedByte();
                in.readUnsignedByte();
                long id = in.readLong();
                byte[] body = new byte[in.readInt()];
                in.readFully(body);
                boolean event = (flag & 0x20) != 0;
                if (!event) {
                    requests.add(body);
                }
                if ((flag & 0x40) != 0) {
                    byte[] answer = event ? body : new byte[] {(byte) 0x92}; // hessian int 2: a null value
                    out.writeShort(0xdabb);
                    out.writeByte((flag & 0x1f) | (event ? 0x20 : 0));
                    out.writeByte(20);
                    out.writeLong(id);
                    out.writeInt(answer.length);
                    out.write(answer);
                    out.flush();
                }
            }
        } catch (IOException closed) {
            // the test is over
        }
    }

    private static Object[] arguments() {
        return new Object[] {7L, Map.of("class", "com.acme.Query", "text", "boots", "limit", 20),
                List.of("a", "b")};
    }

    /** The five head strings, the three arguments, and the attachments of a request body. */
    private static List<Object> read(byte[] body) throws IOException {
        Hessian2Input in = new Hessian2Input(new ByteArrayInputStream(body));
        List<Object> fields = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            fields.add(in.readString());
        }
        for (int i = 0; i < 4; i++) {
            fields.add(in.readObject());
        }
        return fields;
    }

    @Test
    @SuppressWarnings("unchecked")
    void ferrySendsWhatDubbosGenericConsumerSends() throws Exception {
        DubboLoopback.ignoreOtherInterfaces();
        org.apache.dubbo.config.ReferenceConfig<org.apache.dubbo.rpc.service.GenericService> reference =
                new org.apache.dubbo.config.ReferenceConfig<>();
        reference.setInterface(SERVICE);
        reference.setGeneric("true");
        reference.setUrl("dubbo://127.0.0.1:" + server.getLocalPort() + "?serialization=hessian2");
        reference.setTimeout(3000);
        reference.setRetries(0);
        DubboBootstrap dubbo = DubboBootstrap.newInstance();
        byte[] fromDubbo;
        try {
            dubbo.application(DubboLoopback.application("wire-consumer")).reference(reference).start();
            reference.get().$invoke("find", TYPES, arguments());
            fromDubbo = requests.poll(10, TimeUnit.SECONDS);
        } finally {
            dubbo.destroy();
        }
        byte[] fromFerry;
        try (Ferry ferry = Ferry.builder().application(ApplicationConfig.of("wire-consumer")).build()) {
            GenericService generic = ferry.reference(ReferenceConfig.generic(SERVICE)
                    .url("dubbo://127.0.0.1:" + server.getLocalPort()).timeout(Duration.ofMillis(3000)).build());
            generic.$invoke("find", TYPES, arguments());
            fromFerry = requests.poll(10, TimeUnit.SECONDS);
        }
        assertNotNull(fromDubbo, "Dubbo's request");
        assertNotNull(fromFerry, "Ferry's request");

        List<Object> dubbo3 = read(fromDubbo);
        List<Object> ferry = read(fromFerry);
        assertEquals(List.of("2.0.2", SERVICE, "0.0.0", "$invoke",
                "Ljava/lang/String;[Ljava/lang/String;[Ljava/lang/Object;"), dubbo3.subList(0, 5));
        assertEquals(dubbo3.subList(0, 6), ferry.subList(0, 6), "head and method name");
        assertArrayEquals((String[]) dubbo3.get(6), (String[]) ferry.get(6), "parameter types");
        assertEquals(Arrays.asList((Object[]) dubbo3.get(7)), Arrays.asList((Object[]) ferry.get(7)), "arguments");

        Map<String, Object> dubboAttachments = (Map<String, Object>) dubbo3.get(8);
        Map<String, Object> ferryAttachments = (Map<String, Object>) ferry.get(8);
        assertEquals("true", dubboAttachments.get("generic"));
        for (Map.Entry<String, Object> e : dubboAttachments.entrySet()) {
            assertEquals(e.getValue(), ferryAttachments.get(e.getKey()), "attachment " + e.getKey()
                    + " (Dubbo's: " + dubboAttachments + ", Ferry's: " + ferryAttachments + ")");
        }
    }
}
