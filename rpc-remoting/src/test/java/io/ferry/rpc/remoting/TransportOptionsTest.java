package io.ferry.rpc.remoting;

import io.ferry.rpc.option.Option;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The transport's builders take the declared options as they are: checked, defaulted and refused by them. */
class TransportOptionsTest {
    private static void refused(String message, Runnable set) {
        assertEquals(message, assertThrows(IllegalArgumentException.class, set::run).getMessage());
    }

    @Test
    void anOptionSetByNameReadsLikeItsTypedSetter() {
        ClientOptions byName = ClientOptions.builder().option(TransportOptions.CONNECTIONS, 3)
                .option(TransportOptions.TCP_NO_DELAY, false).build();
        ClientOptions typed = ClientOptions.builder().connections(3)
                .socket(SocketOptions.builder().tcpNoDelay(false).build()).build();
        assertEquals(3, byName.connections());
        assertFalse(byName.socket().tcpNoDelay(), "a socket option set on the client reaches its socket");
        assertEquals(typed.toString(), byName.toString());

        ServerOptions server = ServerOptions.builder().option(TransportOptions.THREADS, 8)
                .option(TransportOptions.PORT, 0).build();
        assertEquals(8, server.pool().threads(), "a pool option set on the server reaches its shared pool");
        assertEquals(0, server.port());
    }

    @Test
    void whatIsNotSetReadsAsItsDeclaredDefault() {
        ClientOptions client = ClientOptions.defaults();
        assertEquals(TransportOptions.CONNECT_TIMEOUT.defaultValue(), client.connectTimeout());
        assertEquals(TransportOptions.PAYLOAD.defaultValue(), client.payloadBytes());
        assertEquals(TransportOptions.WRITE_BUFFER_HIGH.defaultValue(), client.socket().writeBufferHighWaterMark());
        assertEquals(Runtime.getRuntime().availableProcessors(), client.maxConnections(), "computed: cores");
        ServerOptions server = ServerOptions.builder().build();
        assertEquals(TransportOptions.PORT.defaultValue(), server.port());
        assertEquals(TransportOptions.THREADS.defaultValue(), server.pool().threads());
        assertEquals(TransportOptions.SHUTDOWN_GRACE.defaultValue(), server.shutdownGrace());
        assertNull(server.host(), "every local address");
        assertTrue(client.values().options().isEmpty(), "nothing set");
    }

    @Test
    void valuesAreCheckedByTheirOptionWhicheverWayTheyAreSet() {
        refused("connections: 2000 (expected: 0..1024)", () -> ClientOptions.builder().connections(2000));
        refused("connections: 2000 (expected: 0..1024)",
                () -> ClientOptions.builder().option(TransportOptions.CONNECTIONS, 2000));
        refused("threads: 0 (expected: 1..10000)", () -> PoolOptions.fixed(0, 0));
        refused("heartbeat: 0ms (expected: > 0)", () -> ServerOptions.builder().heartbeat(Duration.ZERO));
        refused("reconnectBackoffMax: 50ms (expected: >= reconnectBackoffMin 100ms)",
                () -> ClientOptions.builder().option(TransportOptions.RECONNECT_BACKOFF_MAX, Duration.ofMillis(50))
                        .build());
    }

    @Test
    void anOptionABuilderDoesNotCarryIsRefusedNamingWhatItTakes() {
        Option<Integer> threads = TransportOptions.THREADS;
        String message = assertThrows(IllegalArgumentException.class,
                () -> ClientOptions.builder().option(threads, 8)).getMessage();
        assertTrue(message.startsWith("option: threads (expected: a client option, one of [congestionWait, "),
                message);
        assertTrue(TransportOptions.SERVER.containsAll(TransportOptions.POOL));
        assertTrue(TransportOptions.CLIENT.containsAll(TransportOptions.SOCKET));
    }
}
