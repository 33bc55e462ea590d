package io.ferry.rpc.remoting.internal.server;

import io.ferry.rpc.RpcStatus;
import io.ferry.rpc.Ticker;
import io.ferry.rpc.remoting.TlsOptions;
import io.ferry.rpc.remoting.internal.codec.Frame;
import io.ferry.rpc.remoting.internal.log.PeerLog;
import io.ferry.rpc.remoting.internal.tls.TlsContext;
import io.ferry.rpc.testkit.TestPki;
import io.ferry.rpc.testkit.TlsBytes;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.ssl.SslHandler;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The TLS port's first reader on an {@link EmbeddedChannel}: what it does with each kind of first bytes. */
class TlsGateTest {
    @TempDir
    Path dir;
    private EmbeddedChannel channel;
    private TlsContext tls;
    private PeerLog log;
    private HandshakeSlots slots;

    @BeforeEach
    void channel() {
        TestPki pki = TestPki.create(dir, "ferry");
        TestPki.KeyPairFiles provider = pki.server("provider");
        tls = TlsContext.server(TlsOptions.builder().serverKeyCertChain(
                provider.certificateChain().toString(), provider.privateKey().toString())
                .handshakeTimeout(Duration.ofSeconds(5)).build(), Clock.systemUTC());
        log = new PeerLog(TlsGate.class, Ticker.system());
        slots = new HandshakeSlots(2);
        channel = connection();
    }

    private EmbeddedChannel connection() {
        return new EmbeddedChannel(new TlsGate(tls, log, slots), new TlsHandshakes(log, slots));
    }

    @AfterEach
    void close() {
        channel.finishAndReleaseAll();
    }


    @Test
    void aClientHelloInPiecesIsHandedWholeToTheSslHandler() throws Exception {
        byte[] hello = TlsBytes.clientHello();
        channel.writeInbound(Unpooled.wrappedBuffer(hello, 0, 3)); // not even a record header yet
        assertNull(channel.pipeline().get(SslHandler.class));
        assertNull(channel.readOutbound(), "nothing said before the peer is known");

        channel.writeInbound(Unpooled.wrappedBuffer(hello, 3, hello.length - 3));
        assertNotNull(channel.pipeline().get(SslHandler.class), "the gate gave way to TLS");
        assertNull(channel.pipeline().get(TlsGate.class));
        ByteBuf serverHello = channel.readOutbound();
        assertNotNull(serverHello, "the SslHandler read the whole hello, the gate's buffered bytes included");
        assertEquals(0x16, serverHello.getUnsignedByte(0), "a handshake record");
        serverHello.release();
        assertTrue(channel.isActive());
    }

    @Test
    void aPlainHeaderIsAwaitedWholeThenAnsweredWhyAndClosed() {
        ByteBuf frame = Unpooled.buffer().writeShort(Frame.MAGIC).writeByte(0xC2).writeByte(0).writeLong(42)
                .writeInt(0);
        channel.writeInbound(frame.retainedSlice(0, 10));
        assertTrue(channel.isActive(), "ten bytes of a header: wait for the rest");
        assertNull(channel.readOutbound());

        channel.writeInbound(frame.retainedSlice(10, 6));
        frame.release();
        ByteBuf answer = channel.readOutbound();
        assertNotNull(answer);
        assertEquals(42, answer.getLong(4), "answered under the request's id");
        assertEquals(RpcStatus.BAD_REQUEST.wireCode(), answer.getByte(3));
        answer.release();
        assertFalse(channel.isActive(), "closed after the answer");
    }

    @Test
    void aOneWayPlainFrameIsClosedWithoutAnAnswer() {
        channel.writeInbound(Unpooled.buffer().writeShort(Frame.MAGIC).writeByte(0x82).writeByte(0).writeLong(7)
                .writeInt(0));
        assertNull(channel.readOutbound());
        assertFalse(channel.isActive());
    }

    @Test
    void aFirstRecordLongerThanTlsAllowsIsClosedAtOnceAndOneAtTheLimitIsAwaited() {
        channel.writeInbound(Unpooled.buffer().writeByte(0x16).writeShort(0x0301)
                .writeShort(TlsGate.MAX_FIRST_RECORD + 1).writeByte(1));
        assertNull(channel.pipeline().get(SslHandler.class), "never handed on to buffer the rest");
        assertFalse(channel.isActive());

        EmbeddedChannel atTheLimit = connection();
        atTheLimit.writeInbound(Unpooled.buffer().writeByte(0x16).writeShort(0x0301)
                .writeShort(TlsGate.MAX_FIRST_RECORD).writeByte(1));
        assertNotNull(atTheLimit.pipeline().get(SslHandler.class), "a record TLS allows: the SslHandler waits");
        assertTrue(atTheLimit.isActive());
        atTheLimit.finishAndReleaseAll();
    }

    @Test
    void anythingElseIsClosedAtOnce() {
        channel.writeInbound(Unpooled.wrappedBuffer("GET / HTTP/1.1\r\n".getBytes(java.nio.charset.StandardCharsets
                .US_ASCII)));
        assertNull(channel.readOutbound());
        assertFalse(channel.isActive());
    }

    @Test
    void aConnectionFindingEveryHandshakeSlotTakenIsClosedAtOnceAndASlotFreedServesTheNext() {
        EmbeddedChannel second = connection();
        assertEquals(2, slots.taken());
        EmbeddedChannel third = connection();
        assertFalse(third.isActive(), "over sslMaxHandshakes: closed before a byte is read");
        assertEquals(2, slots.taken());

        second.close(); // a handshake that ends (here: its connection) gives its slot back
        assertEquals(1, slots.taken());
        EmbeddedChannel fourth = connection();
        assertTrue(fourth.isActive());
        fourth.finishAndReleaseAll();
        third.finishAndReleaseAll();
    }

    @Test
    void silenceIsClosedAtTheHandshakeDeadline() {
        channel.advanceTimeBy(4, TimeUnit.SECONDS);
        channel.runScheduledPendingTasks();
        assertTrue(channel.isActive());
        channel.advanceTimeBy(2, TimeUnit.SECONDS);
        channel.runScheduledPendingTasks();
        assertFalse(channel.isActive(), "no handshake within sslHandshakeTimeout");
    }
}
