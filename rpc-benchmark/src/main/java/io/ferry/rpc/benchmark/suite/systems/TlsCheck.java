package io.ferry.rpc.benchmark.suite.systems;

import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSession;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManagerFactory;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;

/**
 * Proves that a TLS row measures TLS. A consumer that has made a call proves it speaks TLS when the provider's port
 * refuses plain text: then nothing else could have carried that call. This matters because Dubbo's consumer falls
 * back to plain text without a word when its TLS settings lack a key pair, and a plain row labelled TLS would
 * flatter Dubbo or Ferry alike. The port must also complete a TLS handshake with the run's CA, naming the protocol
 * and cipher suite a JDK client gets.
 */
final class TlsCheck {
    private static final int TIMEOUT_MILLIS = 5_000;
    /** Response status OK of the dubbo protocol: what a provider serving plain text answers a heartbeat with. */
    private static final byte OK = 20;
    /**
     * A dubbo-protocol heartbeat request: magic, flags (request, two-way, event, hessian2), status, id 1, a body of
     * one byte, hessian2's null.
     */
    private static final byte[] HEARTBEAT = {(byte) 0xda, (byte) 0xbb, (byte) 0xe2, 0, 0, 0, 0, 0, 0, 0, 0, 1,
            0, 0, 0, 1, 'N'};

    private TlsCheck() {
    }

    /**
     * Returns "TLS verified: ..." naming the handshake's protocol and cipher suite.
     *
     * @throws IllegalStateException when the port answers plain text, or completes no TLS handshake
     */
    static String verify(String system, String host, int port, Certificates certificates) {
        if (answersPlainText(host, port)) {
            throw new IllegalStateException(system + ": " + host + ":" + port + " answered a plain-text heartbeat, "
                    + "so this row's calls may not be encrypted; its figures would not measure TLS");
        }
        try {
            return "TLS verified: plain text refused on " + host + ":" + port + "; handshake "
                    + handshake(host, port, certificates.ca());
        } catch (IOException | GeneralSecurityException e) {
            throw new IllegalStateException(system + ": " + host + ":" + port + " refused plain text but completed no "
                    + "TLS handshake with the run's CA: " + e, e);
        }
    }

    /** Whether the port answers a plain heartbeat with OK; a close, a reset, a TLS alert or silence mean no. */
    static boolean answersPlainText(String host, int port) {
        try (Socket socket = connected(host, port)) {
            OutputStream out = socket.getOutputStream();
            out.write(HEARTBEAT);
            out.flush();
            byte[] header = socket.getInputStream().readNBytes(4);
            return header.length == 4 && header[0] == (byte) 0xda && header[1] == (byte) 0xbb && header[3] == OK;
        } catch (IOException e) {
            return false; // reset, or silent until the timeout
        }
    }

    private static Socket connected(String host, int port) {
        Socket socket = new Socket();
        try {
            socket.connect(new InetSocketAddress(host, port), TIMEOUT_MILLIS);
            socket.setSoTimeout(TIMEOUT_MILLIS);
            return socket;
        } catch (IOException e) {
            try {
                socket.close();
            } catch (IOException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw new IllegalStateException(host + ":" + port + ": cannot connect to check it (" + e + ")", e);
        }
    }

    /** A JDK client's handshake trusting only the run's CA and checking the address the certificate names. */
    private static String handshake(String host, int port, Path ca) throws IOException, GeneralSecurityException {
        KeyStore trust = KeyStore.getInstance(KeyStore.getDefaultType());
        trust.load(null, null);
        try (InputStream in = Files.newInputStream(ca)) {
            trust.setCertificateEntry("ca", CertificateFactory.getInstance("X.509").generateCertificate(in));
        }
        TrustManagerFactory trustManagers = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        trustManagers.init(trust);
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(null, trustManagers.getTrustManagers(), null);
        try (SSLSocket socket = (SSLSocket) context.getSocketFactory().createSocket()) {
            socket.connect(new InetSocketAddress(host, port), TIMEOUT_MILLIS);
            socket.setSoTimeout(TIMEOUT_MILLIS);
            SSLParameters parameters = socket.getSSLParameters();
            parameters.setEndpointIdentificationAlgorithm("HTTPS");
            socket.setSSLParameters(parameters);
            socket.startHandshake();
            SSLSession session = socket.getSession();
            return session.getProtocol() + " " + session.getCipherSuite();
        }
    }
}
