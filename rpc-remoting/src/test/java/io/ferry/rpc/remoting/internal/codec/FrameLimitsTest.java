package io.ferry.rpc.remoting.internal.codec;

import io.ferry.rpc.RpcStatus;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.util.concurrent.MockTicker;
import io.netty.util.concurrent.Ticker;
import org.junit.jupiter.api.Test;

import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The provider's limits on what a frame may hold, and for how long: the frame timeout counted from a frame's first
 * byte, the budget shared by frames arriving in pieces, and the order of the header checks, so that every two-way
 * request gets one answer or a close and no claimed length is ever skipped blindly. Time is the channel's mock
 * ticker.
 */
class FrameLimitsTest {
    private static final int LIMIT = 64 * 1024;
    private static final long TIMEOUT_NANOS = TimeUnit.SECONDS.toNanos(10);

    private final MockTicker ticker = Ticker.newMockTicker();

    private EmbeddedChannel provider(PartialFrames limits) {
        return EmbeddedChannel.builder().ticker(ticker)
                .handlers(new FrameDecoder(FrameDecoder.Side.PROVIDER, LIMIT, limits)).build();
    }

    private EmbeddedChannel provider() {
        return provider(new PartialFrames(TIMEOUT_NANOS, Long.MAX_VALUE));
    }

    private static ByteBuf header(int flag, long id, int length) {
        return Unpooled.buffer().writeShort(Frame.MAGIC).writeByte(flag).writeByte(0).writeLong(id).writeInt(length);
    }

    private static ByteBuf frame(int flag, long id, int length) {
        return header(flag, id, length).writeZero(length);
    }

    private void advance(long millis, EmbeddedChannel ch) {
        ticker.advance(millis, TimeUnit.MILLISECONDS);
        ch.runScheduledPendingTasks();
    }

    private static void assertAnsweredBadRequest(EmbeddedChannel ch, long id, String containing) {
        ByteBuf answer = ch.readOutbound();
        assertNotNull(answer, "an answer");
        try {
            assertEquals(RpcStatus.BAD_REQUEST.wireCode(), answer.getByte(3));
            assertEquals(id, answer.getLong(4));
            String message = ErrorBodies.readString(Frame.HESSIAN2, answer.slice(16, answer.readableBytes() - 16));
            assertTrue(message.contains(containing), message);
        } finally {
            answer.release();
        }
    }

    @Test
    void aFrameStillIncompleteTenSecondsAfterItsFirstByteIsAnsweredAndClosed() {
        EmbeddedChannel ch = provider();
        ch.writeInbound(header(0xC2, 5, 1000).writeZero(999)); // all but the last byte
        advance(9_999, ch);
        assertNull(ch.readOutbound());
        assertTrue(ch.isOpen());

        advance(1, ch);
        assertAnsweredBadRequest(ch, 5, "frame incomplete 10000 ms after its first byte");
        assertFalse(ch.isOpen());
    }

    @Test
    void tricklingBytesDoesNotExtendTheDeadline() {
        EmbeddedChannel ch = provider();
        ch.writeInbound(header(0xC2, 6, 1000));
        for (int i = 0; i < 9; i++) {
            advance(1_000, ch);
            ch.writeInbound(Unpooled.buffer().writeZero(10));
        }
        assertTrue(ch.isOpen());
        advance(1_000, ch);
        assertAnsweredBadRequest(ch, 6, "frame incomplete");
        assertFalse(ch.isOpen());
    }

    @Test
    void aFrameThatArrivesInTimeIsUntouchedAndTheNextPartialFrameHasADeadlineOfItsOwn() {
        EmbeddedChannel ch = provider();
        ch.writeInbound(header(0xC2, 7, 100).writeZero(50));
        advance(9_000, ch);
        ch.writeInbound(Unpooled.buffer().writeZero(50).writeBytes(header(0xC2, 8, 100)));
        InboundFrame first = ch.readInbound();
        assertEquals(7, first.id());
        first.release();

        advance(9_000, ch); // 18 s since the first frame began, 9 s since the second did
        assertTrue(ch.isOpen());
        assertNull(ch.readOutbound());
        advance(1_000, ch);
        assertAnsweredBadRequest(ch, 8, "frame incomplete");
        assertFalse(ch.isOpen());
    }

    @Test
    void aSlowLargeRequestWithinTheTimeoutDecodes() {
        EmbeddedChannel ch = provider();
        ch.writeInbound(header(0xC2, 9, 60_000));
        for (int i = 0; i < 60; i++) {
            advance(150, ch); // 9 s in all
            ch.writeInbound(Unpooled.buffer().writeZero(1_000));
        }
        InboundFrame frame = ch.readInbound();
        assertEquals(60_000, frame.body().readableBytes());
        frame.release();
        advance(5_000, ch);
        assertTrue(ch.isOpen());
        assertNull(ch.readOutbound());
        assertFalse(ch.finishAndReleaseAll());
    }

    @Test
    void framesArrivingInPiecesShareOneBudgetAndWholeFramesNeverCount() {
        PartialFrames limits = new PartialFrames(TIMEOUT_NANOS, 50_000);
        EmbeddedChannel first = provider(limits);
        EmbeddedChannel second = provider(limits);

        second.writeInbound(frame(0xC2, 1, 40_000)); // whole in one read: no budget needed
        ((InboundFrame) second.readInbound()).release();
        assertEquals(0, limits.heldBytes());

        first.writeInbound(header(0xC2, 2, 30_000).writeZero(100));
        assertEquals(30_016, limits.heldBytes());
        second.writeInbound(header(0xC2, 3, 30_000).writeZero(100));
        assertAnsweredBadRequest(second, 3, "would overdraw the budget of 50000 bytes");
        assertFalse(second.isOpen());
        assertTrue(first.isOpen());

        first.writeInbound(Unpooled.buffer().writeZero(29_900));
        ((InboundFrame) first.readInbound()).release();
        assertEquals(0, limits.heldBytes(), "given back when the frame completes");

        first.writeInbound(header(0xC2, 4, 30_000));
        assertEquals(30_016, limits.heldBytes());
        first.close();
        assertEquals(0, limits.heldBytes(), "given back when the connection closes");
    }

    @Test
    void aTwoWayEventOfAnySizeIsAnsweredAndTheStreamStaysInStep() {
        EmbeddedChannel ch = provider();
        ByteBuf stream = frame(0xE2, 11, 100); // a two-way event with a 100-byte body
        stream.writeBytes(frame(0xC2, 12, 3));
        ch.writeInbound(stream);
        assertAnsweredBadRequest(ch, 11, "event body of 100 bytes refused");
        InboundFrame next = ch.readInbound();
        assertEquals(12, next.id());
        next.release();
        assertTrue(ch.isOpen());
    }

    @Test
    void anEventClaimingMoreThanThePayloadLimitIsRefusedAndClosedNotSkipped() {
        EmbeddedChannel ch = provider();
        ch.writeInbound(header(0xE2, 13, Integer.MAX_VALUE));
        assertAnsweredBadRequest(ch, 13, "exceeds the payload limit");
        assertFalse(ch.isOpen());
    }

    @Test
    void aForeignRequestClaimingMoreThanThePayloadLimitIsRefusedAndClosedNotSkipped() {
        EmbeddedChannel ch = provider();
        ch.writeInbound(header(0xD7, 14, LIMIT + 1)); // fastjson2
        assertAnsweredBadRequest(ch, 14, "exceeds the payload limit");
        assertFalse(ch.isOpen());
    }

    @Test
    void aFrameBeingSkippedKeepsItsDeadline() {
        EmbeddedChannel ch = provider();
        ch.writeInbound(header(0xD7, 15, 1_000).writeZero(10)); // foreign: answered at once, its body skipped
        assertAnsweredBadRequest(ch, 15, "serialization id 23");
        advance(10_000, ch);
        assertNull(ch.readOutbound(), "answered once already");
        assertFalse(ch.isOpen());
    }
}
