package io.ferry.rpc.testkit;

import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLException;
import java.nio.ByteBuffer;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;

/** Bytes a TLS peer sends, for tests that play one badly. */
public final class TlsBytes {
    private TlsBytes() {
    }

    /** The first flight of a real TLS client (the JDK's): one ClientHello record. */
    public static byte[] clientHello() {
        try {
            SSLEngine engine = SSLContext.getDefault().createSSLEngine("127.0.0.1", 1);
            engine.setUseClientMode(true);
            ByteBuffer out = ByteBuffer.allocate(engine.getSession().getPacketBufferSize());
            engine.wrap(ByteBuffer.allocate(0), out);
            return Arrays.copyOf(out.array(), out.position());
        } catch (NoSuchAlgorithmException | SSLException e) {
            throw new IllegalStateException("the JDK cannot make a ClientHello", e);
        }
    }
}
