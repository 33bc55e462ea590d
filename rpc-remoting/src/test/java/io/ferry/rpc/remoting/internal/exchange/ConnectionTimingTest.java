package io.ferry.rpc.remoting.internal.exchange;

import io.ferry.rpc.remoting.ConnectionInfo;
import io.ferry.rpc.remoting.internal.codec.Frame;
import io.ferry.rpc.remoting.internal.codec.FrameDecoder;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.util.HashedWheelTimer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What a connection measures, on the client's ticker, here a fake one: its age, the time its outbound buffer stood
 * above the high water mark, and the last heartbeat's round trip.
 */
class ConnectionTimingTest {
    /** Never started: nothing here sends a call or awaits readiness. */
    private static final HashedWheelTimer TIMER = new HashedWheelTimer();

    private final AtomicLong now = new AtomicLong(1_000_000_000L);
    private EmbeddedChannel channel;
    private Connection connection;

    @BeforeEach
    void open() {
        ClientHandler handler = new ClientHandler();
        channel = new EmbeddedChannel();
        channel.config().setWriteBufferWaterMark(new WriteBufferWaterMark(8, 16));
        connection = Connections.bind(handler, channel, "peer", TIMER, now::get);
        channel.pipeline().addLast(new FrameDecoder(FrameDecoder.Side.CONSUMER, 1 << 20), handler);
    }

    @AfterEach
    void close() {
        channel.finishAndReleaseAll();
    }

    @AfterAll
    static void stopTimer() {
        TIMER.stop();
    }

    private ConnectionInfo view() {
        return connection.snapshot(ConnectionInfo.State.READY);
    }

    private static Duration ms(long millis) {
        return Duration.ofMillis(millis);
    }

    private void advance(long millis) {
        now.addAndGet(ms(millis).toNanos());
    }

    /** What a provider sends back for a heartbeat: the event flag, status OK, the id, hessian2's null. */
    private static ByteBuf heartbeatAnswer(long id) {
        return Unpooled.buffer().writeShort(Frame.MAGIC).writeByte(Frame.FLAG_EVENT | Frame.HESSIAN2)
                .writeByte(Frame.STATUS_OK).writeLong(id).writeInt(1).writeByte('N');
    }

    @Test
    void theHeartbeatRoundTripIsTheTickerTimeFromSendingToTheAnswer() {
        assertNull(view().lastHeartbeatRtt(), "no heartbeat answered yet");
        long id = connection.nextHeartbeatId();
        advance(7);
        channel.writeInbound(heartbeatAnswer(id));
        assertEquals(ms(7), view().lastHeartbeatRtt());

        long next = connection.nextHeartbeatId();
        advance(3);
        channel.writeInbound(heartbeatAnswer(next - 1)); // an answer to an older heartbeat: not this one's trip
        assertEquals(ms(7), view().lastHeartbeatRtt());
        advance(40);
        channel.writeInbound(heartbeatAnswer(next));
        assertEquals(ms(43), view().lastHeartbeatRtt());
    }

    @Test
    void theAgeCountsFromTheBind() {
        assertEquals(Duration.ZERO, view().age());
        advance(90_000);
        assertEquals(ms(90_000), view().age());
    }

    @Test
    void theTimeUnwritableAddsUpEachSpellAboveTheHighWaterMark() {
        assertEquals(Duration.ZERO, view().unwritableTime());
        channel.write(Unpooled.wrappedBuffer(new byte[32])); // queued, not flushed: above the mark of 16 bytes
        channel.runPendingTasks();
        assertFalse(channel.isWritable());
        advance(250);
        assertEquals(ms(250), view().unwritableTime(), "a spell still under way counts up to now");

        channel.flush();
        channel.runPendingTasks();
        assertTrue(channel.isWritable());
        advance(1_000);
        assertEquals(ms(250), view().unwritableTime(), "writable again: the clock stops");

        channel.write(Unpooled.wrappedBuffer(new byte[32]));
        channel.runPendingTasks();
        advance(50);
        channel.flush();
        channel.runPendingTasks();
        assertEquals(ms(300), view().unwritableTime());
        ((ByteBuf) channel.readOutbound()).release();
        ((ByteBuf) channel.readOutbound()).release();
    }
}
