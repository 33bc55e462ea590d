package io.ferry.rpc.remoting;

/** Which TLS implementation does the handshakes and the encryption. */
public enum SslProvider {
    /** The JDK's own (JSSE): always there. */
    JDK,
    /**
     * BoringSSL through netty-tcnative-boringssl-static, which must be on the class path (Ferry declares it
     * optional): cheaper per byte and per handshake than the JDK's.
     */
    OPENSSL
}
