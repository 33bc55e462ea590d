package io.ferry.rpc.remoting.internal.liveness;

import io.ferry.rpc.Ticker;
import io.ferry.rpc.remoting.internal.codec.FrameEncoder;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.util.concurrent.ScheduledFuture;
import io.ferry.rpc.remoting.internal.log.PeerLog;

import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * Runs a {@link KeepAlive} on a consumer connection's event loop: notes every read, sends a heartbeat when the
 * connection has been idle for the cycle's threshold, and closes it after three intervals without a read (a peer
 * that vanished, or a path that silently drops packets); the connection's slot then reconnects. A call that timed out
 * with nothing read since it was written ({@link SilentTimeout}, fired by the connection) makes it ping at once and
 * close if that ping is not answered within the connect timeout (see {@link KeepAlive}).
 */
public final class KeepAliveHandler extends ChannelInboundHandlerAdapter {
    /** A provider that goes silent decides how often this is logged: limited for the whole process. */
    private static final PeerLog SILENT = new PeerLog(KeepAliveHandler.class, Ticker.system());

    private final long intervalNanos;
    private final double jitter;
    private final HeartbeatIds ids;
    private final long pingAnswerNanos;
    private LongSupplier clock;
    private KeepAlive keepAlive;
    private ScheduledFuture<?> tick;

    /** Supplies ids for heartbeat requests, from the connection's own counter. */
    @FunctionalInterface
    public interface HeartbeatIds {
        long next();
    }

    /**
     * A call on this connection timed out {@code sentNanosAgo} after it was written: fired on the pipeline by the
     * connection, consumed here.
     */
    public record SilentTimeout(long sentNanosAgo) {
    }

    /** Time comes from the event loop's own ticker, which tests advance by hand. A ping's answer is awaited 3 s. */
    public KeepAliveHandler(long intervalNanos, HeartbeatIds ids) {
        this(intervalNanos, 0.5, TimeUnit.SECONDS.toNanos(3), ids);
    }

    /** @param pingAnswerNanos how long the ping after a silent timeout may wait for any read (the connect timeout) */
    public KeepAliveHandler(long intervalNanos, double jitter, long pingAnswerNanos, HeartbeatIds ids) {
        this.intervalNanos = intervalNanos;
        this.jitter = jitter;
        this.pingAnswerNanos = pingAnswerNanos;
        this.ids = ids;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) throws Exception {
        io.netty.util.concurrent.Ticker ticker = ctx.executor().ticker();
        clock = ticker::nanoTime;
        keepAlive = new KeepAlive(intervalNanos, jitter, clock.getAsLong(),
                () -> ThreadLocalRandom.current().nextDouble());
        schedule(ctx);
        super.channelActive(ctx);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
        if (keepAlive != null) {
            keepAlive.onRead(clock.getAsLong());
        }
        super.channelRead(ctx, msg);
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) throws Exception {
        if (!(evt instanceof SilentTimeout timedOut)) {
            super.userEventTriggered(ctx, evt);
            return;
        }
        if (keepAlive == null || !ctx.channel().isActive()) {
            return;
        }
        if (keepAlive.callTimedOut(clock.getAsLong(), timedOut.sentNanosAgo(), pingAnswerNanos)
                == KeepAlive.Action.SEND_HEARTBEAT) {
            ctx.writeAndFlush(FrameEncoder.heartbeatRequest(ctx.alloc(), ids.next()));
            if (tick != null) {
                tick.cancel(false);
            }
            schedule(ctx); // the ping's deadline may come before the next heartbeat check
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        if (tick != null) {
            tick.cancel(false);
        }
        super.channelInactive(ctx);
    }

    private void schedule(ChannelHandlerContext ctx) {
        tick = ctx.executor().schedule(() -> check(ctx), keepAlive.nextCheckIn(clock.getAsLong()),
                TimeUnit.NANOSECONDS);
    }

    private void check(ChannelHandlerContext ctx) {
        if (!ctx.channel().isActive()) {
            return;
        }
        switch (keepAlive.check(clock.getAsLong())) {
            case SEND_HEARTBEAT -> ctx.writeAndFlush(FrameEncoder.heartbeatRequest(ctx.alloc(), ids.next()));
            case CLOSE -> {
                SILENT.warn("{}: nothing read for {} ms (3 heartbeat intervals); closing to reconnect",
                        ctx.channel().remoteAddress(), TimeUnit.NANOSECONDS.toMillis(3 * intervalNanos));
                ctx.close();
                return;
            }
            case CLOSE_SILENT -> {
                SILENT.warn("{}: a call timed out with nothing read since it was sent, and a ping got no answer "
                        + "within {} ms; closing to reconnect", ctx.channel().remoteAddress(),
                        TimeUnit.NANOSECONDS.toMillis(pingAnswerNanos));
                ctx.close();
                return;
            }
            default -> {
            }
        }
        schedule(ctx);
    }
}
