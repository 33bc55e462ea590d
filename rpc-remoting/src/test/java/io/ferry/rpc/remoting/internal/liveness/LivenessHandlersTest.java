package io.ferry.rpc.remoting.internal.liveness;

import io.ferry.rpc.Ticker;
import io.ferry.rpc.remoting.internal.service.ServiceTable;
import io.ferry.rpc.remoting.internal.codec.Frame;
import io.ferry.rpc.remoting.internal.server.ServerHandler;
import io.netty.buffer.ByteBuf;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.handler.timeout.IdleStateHandler;
import io.netty.util.concurrent.GlobalEventExecutor;
import org.junit.jupiter.api.Test;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The liveness handlers on Netty's EmbeddedChannel with frozen time, advanced by hand: no sleeps. */
class LivenessHandlersTest {
    @Test
    void consumerSendsHeartbeatsWhenIdleAndClosesAfterThreeSilentIntervals() {
        AtomicLong ids = new AtomicLong(100);
        EmbeddedChannel ch = new EmbeddedChannel();
        ch.freezeTime();
        ch.pipeline().addLast(new KeepAliveHandler(TimeUnit.SECONDS.toNanos(10), ids::getAndIncrement));
        ch.pipeline().fireChannelActive();

        ch.advanceTimeBy(4, TimeUnit.SECONDS);
        ch.runScheduledPendingTasks();
        assertNull(ch.readOutbound(), "no heartbeat before half an interval");

        ch.advanceTimeBy(11, TimeUnit.SECONDS); // past 1.5 intervals: the first heartbeat is due
        ch.runScheduledPendingTasks();
        ByteBuf heartbeat = ch.readOutbound();
        assertEquals((byte) 0xE2, heartbeat.getByte(2), "a two-way hessian2 event");
        assertEquals(100, heartbeat.getLong(4));
        heartbeat.release();
        assertTrue(ch.isOpen());

        for (int second = 15; second < 29; second++) { // one second at a time, to t = 29 s
            ch.advanceTimeBy(1, TimeUnit.SECONDS);
            ch.runScheduledPendingTasks();
            releaseAll(ch);
        }
        assertTrue(ch.isOpen(), "29 s without a read: still open");
        ch.advanceTimeBy(2, TimeUnit.SECONDS);
        ch.runScheduledPendingTasks();
        assertFalse(ch.isOpen(), "30 s = 3 intervals without a read: closed");
        releaseAll(ch);
    }

    @Test
    void readsKeepTheConsumerConnectionQuiet() {
        EmbeddedChannel ch = new EmbeddedChannel();
        ch.freezeTime();
        ch.pipeline().addLast(new KeepAliveHandler(TimeUnit.SECONDS.toNanos(10), () -> 1));
        ch.pipeline().fireChannelActive();
        for (int i = 0; i < 20; i++) {
            ch.advanceTimeBy(4, TimeUnit.SECONDS);
            ch.writeInbound("traffic");
            ch.readInbound();
            ch.runScheduledPendingTasks();
        }
        assertNull(ch.readOutbound(), "80 s of traffic every 4 s: never idle, never a heartbeat");
        assertTrue(ch.isOpen());
        ch.finishAndReleaseAll();
    }

    @Test
    void aSilentTimeoutPingsAtOnceAndAnUnansweredPingClosesWithinItsBound() {
        AtomicLong ids = new AtomicLong(7);
        EmbeddedChannel ch = new EmbeddedChannel();
        ch.freezeTime();
        ch.pipeline().addLast(new KeepAliveHandler(TimeUnit.SECONDS.toNanos(60), 0.5, TimeUnit.SECONDS.toNanos(3),
                ids::getAndIncrement));
        ch.pipeline().fireChannelActive();
        ch.advanceTimeBy(2, TimeUnit.SECONDS);
        ch.pipeline().fireUserEventTriggered(new KeepAliveHandler.SilentTimeout(TimeUnit.SECONDS.toNanos(1)));
        ByteBuf ping = ch.readOutbound();
        assertEquals((byte) 0xE2, ping.getByte(2), "a two-way heartbeat, at once");
        assertEquals(7, ping.getLong(4));
        ping.release();
        ch.advanceTimeBy(2, TimeUnit.SECONDS);
        ch.runScheduledPendingTasks();
        assertTrue(ch.isOpen(), "2 s into the ping's 3 s");
        ch.advanceTimeBy(1, TimeUnit.SECONDS);
        ch.runScheduledPendingTasks();
        assertFalse(ch.isOpen(), "no answer within 3 s: closed, to reconnect (not after 3 x 60 s)");
        releaseAll(ch);
    }

    @Test
    void aSilentTimeoutAfterAReadSendsNothing() {
        EmbeddedChannel ch = new EmbeddedChannel();
        ch.freezeTime();
        ch.pipeline().addLast(new KeepAliveHandler(TimeUnit.SECONDS.toNanos(60), 0.5, TimeUnit.SECONDS.toNanos(3),
                () -> 1));
        ch.pipeline().fireChannelActive();
        ch.advanceTimeBy(2, TimeUnit.SECONDS);
        ch.writeInbound("an answer to another call");
        ch.readInbound();
        ch.advanceTimeBy(1, TimeUnit.SECONDS);
        ch.pipeline().fireUserEventTriggered(new KeepAliveHandler.SilentTimeout(TimeUnit.SECONDS.toNanos(2)));
        assertNull(ch.readOutbound(), "something was read since the call was sent");
        ch.advanceTimeBy(10, TimeUnit.SECONDS);
        ch.runScheduledPendingTasks();
        assertTrue(ch.isOpen());
        ch.finishAndReleaseAll();
    }

    @Test
    void providerClosesAConnectionSilentForThreeHeartbeatIntervals() {
        EmbeddedChannel ch = new EmbeddedChannel();
        ch.freezeTime();
        ch.pipeline().addLast(new IdleStateHandler(30, 0, 0, TimeUnit.SECONDS),
                new ServerHandler(new ServiceTable(), null, io.ferry.rpc.remoting.Dispatcher.ALL, Frame.HEADER_LENGTH,
                        new DefaultChannelGroup(GlobalEventExecutor.INSTANCE), 0, Ticker.system()));
        ch.advanceTimeBy(29, TimeUnit.SECONDS);
        ch.runPendingTasks();
        ch.runScheduledPendingTasks();
        assertTrue(ch.isOpen());
        ch.advanceTimeBy(2, TimeUnit.SECONDS);
        ch.runScheduledPendingTasks();
        assertFalse(ch.isOpen());
    }

    private static void releaseAll(EmbeddedChannel ch) {
        Object o;
        while ((o = ch.readOutbound()) != null) {
            ((ByteBuf) o).release();
        }
    }

}
