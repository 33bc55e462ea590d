package io.ferry.rpc.remoting.internal.tls;

import io.ferry.rpc.remoting.SslProvider;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Renegotiation off. TLS 1.3 has none; on 1.2 a client-initiated renegotiation costs the provider a full handshake
 * per request of the peer's choosing. OpenSSL's engine refuses it in Netty already; the JDK's refuses it only
 * under a JVM-wide switch, read once as its TLS classes load, so a provider sets it before its first context
 * unless the application decided otherwise.
 */
final class RenegotiationGuard {
    static final String JDK_PROPERTY = "jdk.tls.rejectClientInitiatedRenegotiation";
    private static final Logger log = LoggerFactory.getLogger(RenegotiationGuard.class);

    private RenegotiationGuard() {
    }

    static synchronized void install(SslProvider provider) {
        if (provider != SslProvider.JDK) {
            return;
        }
        String set = System.getProperty(JDK_PROPERTY);
        if (set == null) {
            System.setProperty(JDK_PROPERTY, "true");
        } else if (!Boolean.parseBoolean(set)) {
            log.warn("-D{}={}: TLS 1.2 consumers may renegotiate with this provider (each renegotiation is a full "
                    + "handshake they can ask for at will)", JDK_PROPERTY, set);
        }
    }
}
