package io.ferry.rpc.registry.internal;

import io.ferry.rpc.Ticker;

import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509TrustManager;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.security.GeneralSecurityException;
import java.security.cert.X509Certificate;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Tells a TLS mismatch between a ZooKeeper client and a server's port, which ZooKeeper itself only shows as a
 * connection that never comes up: a TLS client at a plain port, a plain client at a secure port, or a handshake
 * that fails (an untrusted or misnamed certificate, a client certificate the server requires). Asked at start, only
 * when no first connection has come; it opens its own connections and sends no ZooKeeper request.
 */
public final class TlsMismatch {
    /** How long a finished handshake is watched for the server's alert refusing this client's certificate. */
    private static final long ALERT_WAIT_MILLIS = 1000;

    private TlsMismatch() {
    }

    /**
     * What is wrong at {@code address}, as the end of a sentence ("it does not speak TLS on this port ..."), or empty
     * when its answers show no mismatch: nothing listens there, or the handshake works.
     *
     * @param own           the client's SSL context, or null when it connects without TLS
     * @param verifyHost    whether the client checks that the certificate names the host
     * @param deadlineNanos on {@code ticker}: when to give up (a port that does not answer is no verdict)
     */
    public static Optional<String> diagnose(InetSocketAddress address, SSLContext own, boolean verifyHost,
                                            Ticker ticker, long deadlineNanos) {
        Deadline deadline = new Deadline(ticker, deadlineNanos);
        if (own == null) {
            return speaksTls(address, deadline) ? Optional.of("it speaks TLS on this port (ZooKeeper's "
                    + "secureClientPort): set zookeeperTls=true (and zookeeperTrustCertCollectionPath), or give its "
                    + "plain clientPort") : Optional.empty();
        }
        String failure = handshake(address, own, verifyHost, deadline, null);
        if (failure == null) {
            return Optional.empty();
        }
        if (!speaksTls(address, deadline)) {
            return Optional.of("it does not speak TLS on this port (" + failure + "): give ZooKeeper's "
                    + "secureClientPort, or turn zookeeperTls off for its plain clientPort");
        }
        return Optional.of("the TLS handshake failed: " + failure + " (check zookeeperTrustCertCollectionPath, "
                + "and zookeeperKeyCertChainPath where the server requires client certificates, ZooKeeper's default)");
    }

    /** Whether the port answers a TLS hello with a certificate, whatever the certificate. */
    private static boolean speaksTls(InetSocketAddress address, Deadline deadline) {
        AtomicBoolean sawCertificate = new AtomicBoolean();
        try {
            SSLContext anyCertificate = SSLContext.getInstance("TLS");
            // only looks: nothing is sent over this connection, and it is closed after the handshake
            anyCertificate.init(null, new TrustManager[] {new Looking(sawCertificate)}, null);
            handshake(address, anyCertificate, false, deadline, sawCertificate);
        } catch (GeneralSecurityException e) {
            return false;
        }
        return sawCertificate.get();
    }

    /**
     * Why a TLS handshake (and a short wait for an alert after it) failed, or null when it did not fail: it worked,
     * or nothing answered in time. {@code looking}: only to see a certificate, no wait.
     */
    private static String handshake(InetSocketAddress address, SSLContext context, boolean verifyHost,
                                       Deadline deadline, AtomicBoolean looking) {
        String host = address.getHostString();
        try (Socket plain = new Socket()) {
            try {
                plain.connect(new InetSocketAddress(host, address.getPort()), deadline.remainingMillis());
                plain.setSoTimeout(deadline.remainingMillis());
            } catch (IOException | IllegalArgumentException e) {
                return null; // refused, or out of time: no verdict
            }
            try (SSLSocket tls = (SSLSocket) context.getSocketFactory().createSocket(plain, host, address.getPort(),
                    false)) {
                if (verifyHost) {
                    SSLParameters parameters = tls.getSSLParameters();
                    parameters.setEndpointIdentificationAlgorithm("HTTPS");
                    tls.setSSLParameters(parameters);
                }
                tls.startHandshake();
                if (looking != null) {
                    return null;
                }
                // TLS 1.3: the server checks the client's certificate after the client has finished
                tls.setSoTimeout((int) Math.min(ALERT_WAIT_MILLIS, deadline.remainingMillis()));
                return tls.getInputStream().read() < 0
                        ? "the server closed the connection after the handshake" : null;
            } catch (SocketTimeoutException | IllegalArgumentException e) {
                return null; // no answer, or no alert, in time: no verdict
            } catch (SSLException e) {
                return e.getMessage();
            } catch (IOException e) {
                return e.toString(); // closed or reset in the middle of the handshake
            }
        } catch (IOException e) {
            return null;
        }
    }

    /** When the diagnosis gives up, on the registry's ticker. */
    private record Deadline(Ticker ticker, long nanos) {
        /** What is left, at least 1 ms; out of time: IllegalArgumentException, which ends the attempt. */
        int remainingMillis() {
            long left = TimeUnit.NANOSECONDS.toMillis(nanos - ticker.nanoTime());
            if (left <= 0) {
                throw new IllegalArgumentException("out of time");
            }
            return (int) Math.min(Integer.MAX_VALUE, left);
        }
    }

    /** Accepts any certificate and notes that one came: for telling a TLS port from a plain one, never for data. */
    private record Looking(AtomicBoolean sawCertificate) implements X509TrustManager {
        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType) {
            sawCertificate.set(true);
        }

        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType) {
            throw new UnsupportedOperationException("a client-side check only");
        }

        @Override
        public X509Certificate[] getAcceptedIssuers() {
            return new X509Certificate[0];
        }
    }
}
