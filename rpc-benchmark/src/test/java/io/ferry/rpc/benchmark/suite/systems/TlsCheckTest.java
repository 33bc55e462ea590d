package io.ferry.rpc.benchmark.suite.systems;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The check that keeps a plain connection out of a TLS row: it must see a plain port for what it is, with Ferry's
 * provider and Dubbo's (whose consumer falls back to plain text unasked), and pass a TLS-only port of either.
 */
class TlsCheckTest {
    private static final String HOST = "127.0.0.1";

    @Test
    void aPlainFerryPortFailsTheCheckLoudly() {
        try (Provider plain = Systems.provider("ferry", HOST, 0, Tuning.DEFAULTS)) {
            IllegalStateException e = assertThrows(IllegalStateException.class,
                    () -> TlsCheck.verify("ferry-tls-jdk", HOST, plain.port(), Certificates.ofThisRun()));
            assertTrue(e.getMessage().contains("answered a plain-text heartbeat"), e.getMessage());
        }
    }

    @Test
    void ferrysTlsPortsRefusePlainTextAndCompleteAHandshake() {
        for (String system : new String[] {"ferry-tls-jdk", "ferry-tls-openssl"}) {
            try (Provider tls = Systems.provider(system, HOST, 0, Tuning.DEFAULTS)) {
                String verified = TlsCheck.verify(system, HOST, tls.port(), Certificates.ofThisRun());
                assertTrue(verified.startsWith("TLS verified") && verified.contains("TLSv1."), verified);
            }
        }
    }

    @Test
    void aPlainDubboPortIsSeenForWhatItIs() throws IOException {
        try (Provider plain = Systems.provider("dubbo", HOST, freePort(), Tuning.DEFAULTS)) {
            assertTrue(TlsCheck.answersPlainText(HOST, plain.port()));
        }
    }

    @Test
    void dubbosTlsPortRefusesPlainTextAndCompletesAHandshake() throws IOException {
        try (Provider tls = Systems.provider("dubbo-tls", HOST, freePort(), Tuning.DEFAULTS)) {
            assertFalse(TlsCheck.answersPlainText(HOST, tls.port()));
            String verified = TlsCheck.verify("dubbo-tls", HOST, tls.port(), Certificates.ofThisRun());
            assertTrue(verified.contains("TLSv1."), verified);
        }
    }

    /** Dubbo cannot be asked for port 0. */
    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }
}
