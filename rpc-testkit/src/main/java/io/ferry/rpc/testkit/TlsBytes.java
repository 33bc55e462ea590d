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

    /**
     * A ClientHello of a client that speaks only TLS {@code 1.minor - 1} ({@code minor} 1: TLS 1.0, 2: TLS 1.1): its
     * record and its client_version say so, it offers TLS_RSA_WITH_AES_128_CBC_SHA and no extensions (so no
     * supported_versions to offer anything newer). Built by hand: the JDK no longer offers these versions.
     */
    public static byte[] legacyClientHello(int minor) {
        byte[] body = new byte[2 + 32 + 1 + 2 + 2 + 1 + 1];
        int at = 0;
        body[at++] = 3;
        body[at++] = (byte) minor;
        for (int i = 0; i < 32; i++) {
            body[at++] = (byte) (i * 7 + 1); // the client's random: any bytes do
        }
        body[at++] = 0; // no session id
        body[at++] = 0;
        body[at++] = 2; // one cipher suite
        body[at++] = 0x00;
        body[at++] = 0x2f;
        body[at++] = 1; // one compression method: none
        body[at] = 0;
        byte[] record = new byte[5 + 4 + body.length];
        record[0] = 0x16; // handshake
        record[1] = 3;
        record[2] = (byte) minor;
        record[3] = (byte) ((4 + body.length) >> 8);
        record[4] = (byte) (4 + body.length);
        record[5] = 1; // ClientHello
        record[6] = 0;
        record[7] = (byte) (body.length >> 8);
        record[8] = (byte) body.length;
        System.arraycopy(body, 0, record, 9, body.length);
        return record;
    }
}
