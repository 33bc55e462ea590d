package io.ferry.rpc.remoting.internal.tls;

import io.netty.handler.ssl.NotSslRecordException;

import javax.net.ssl.SSLHandshakeException;
import java.nio.channels.ClosedChannelException;
import java.security.cert.CertPathValidatorException;
import java.security.cert.CertificateExpiredException;
import java.security.cert.CertificateNotYetValidException;

/** Why a TLS handshake failed, in words a log line or an exception can carry: the deepest cause that says it. */
public final class HandshakeFailure {
    private HandshakeFailure() {
    }

    public static String reason(Throwable failure) {
        if (failure == null) {
            return "unknown";
        }
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof CertificateExpiredException || t instanceof CertificateNotYetValidException) {
                return "the certificate is out of its validity period (" + t.getMessage() + ")";
            }
            if (t instanceof NotSslRecordException) {
                return "the peer does not speak TLS";
            }
            if (t instanceof ClosedChannelException) {
                return "the peer closed the connection during the handshake (does it speak TLS on this port?)";
            }
            String message = String.valueOf(t.getMessage());
            if (message.contains("certificate_required")) {
                return "the provider requires a client certificate (client-key-cert-chain-path) (" + message + ")";
            }
            if (message.contains("bad_certificate") || message.contains("unknown_ca")
                    || message.contains("certificate_unknown") || message.contains("certificate_expired")
                    || message.contains("certificate_revoked")) {
                return "the peer refused this side's certificate, or the lack of one (" + message + ")";
            }
            if (message.contains("unable to find valid certification path")
                    || t instanceof CertPathValidatorException) {
                return "the certificate is not signed by a trusted CA (" + message + ")";
            }
            if (message.contains("No subject alternative") || message.contains("No name matching")) {
                return "the certificate does not name the address connected to (" + message + ")";
            }
            if (message.contains("timed out")) {
                return "the handshake timed out (" + message + ")";
            }
            if (message.contains("closed") && t instanceof SSLHandshakeException) {
                return "the peer closed the connection during the handshake (does it speak TLS on this port?)";
            }
        }
        Throwable root = failure;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root.getMessage() == null ? root.toString() : root.getMessage();
    }
}
