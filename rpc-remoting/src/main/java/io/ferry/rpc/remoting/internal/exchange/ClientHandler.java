package io.ferry.rpc.remoting.internal.exchange;

import io.ferry.rpc.remoting.internal.codec.ErrorBodies;
import io.ferry.rpc.remoting.internal.codec.FrameEncoder;
import io.ferry.rpc.remoting.internal.codec.InboundFrame;
import io.ferry.rpc.remoting.internal.codec.OversizeResponse;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.ferry.rpc.Ticker;
import io.ferry.rpc.remoting.internal.log.ConnectionErrors;
import io.ferry.rpc.remoting.internal.log.PeerLog;

/**
 * The consumer end of one connection, on its IO thread: routes answers to their pending calls, answers a peer's
 * heartbeat, honours readonly/writeable events, and fails every pending call when the channel closes.
 */
public final class ClientHandler extends ChannelInboundHandlerAdapter {
    // a provider chooses how often these happen; limited for the whole process, on the system ticker
    private static final PeerLog PROVIDER_FRAMES = new PeerLog(ClientHandler.class, Ticker.system());
    private static final PeerLog ERRORS = new PeerLog(ClientHandler.class, Ticker.system());
    private static final PeerLog RESETS = new PeerLog(ClientHandler.class, Ticker.system());

    private Connection connection;

    void bind(Connection connection) {
        this.connection = connection;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (msg instanceof OversizeResponse oversize) {
            connection.onOversize(oversize);
            return;
        }
        InboundFrame frame = (InboundFrame) msg;
        if (!frame.isEvent() && !frame.isRequest()) {
            connection.onResponse(frame);
            return;
        }
        try {
            if (frame.isEvent() && frame.isRequest()) {
                onEvent(ctx, frame);
            } else if (frame.isEvent()) {
                connection.onHeartbeatAnswer(frame.id()); // an answer to a heartbeat, perhaps the readiness ping
            } else {
                PROVIDER_FRAMES.warn("{}: provider sent a request (callbacks are not supported), ignored",
                        connection.peer());
            }
        } finally {
            frame.release();
        }
    }

    private void onEvent(ChannelHandlerContext ctx, InboundFrame frame) {
        if (frame.isTwoWay()) {
            // a two-way event is a heartbeat in whatever serialization: echo it
            ctx.writeAndFlush(FrameEncoder.heartbeatResponse(ctx.alloc(), frame));
            return;
        }
        String event = ErrorBodies.readString(frame.serialization(), frame.body());
        if ("R".equals(event)) {
            PROVIDER_FRAMES.info("{}: provider announced it is shutting down (readonly)", connection.peer());
            connection.readonly(true);
        } else if ("W".equals(event)) {
            connection.readonly(false);
        }
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) throws Exception {
        connection.servedBy(Thread.currentThread());
        super.channelActive(ctx);
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) throws Exception {
        connection.writabilityChanged(ctx.channel().isWritable());
        super.channelWritabilityChanged(ctx);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        if (connection != null) {
            connection.onClosed();
        }
        super.channelInactive(ctx);
    }

    /** A reset by the provider is only DEBUG: the connection's slot reconnects, and the call fails anyway. */
    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        if (connection != null) {
            connection.closingAfter(cause);
        }
        if (ConnectionErrors.isPeerGone(cause)) {
            RESETS.debug("{}: closed by the provider: {}", ctx.channel().remoteAddress(), cause.toString());
        } else if (ConnectionErrors.isHandshakeFailure(cause)) {
            // the connect attempt fails with the reason, in words, and the slot reports it: no second line here
            RESETS.debug("{}: TLS handshake failed: {}", ctx.channel().remoteAddress(), cause.toString());
        } else {
            ERRORS.warn("{}: closing after an error: {}", ctx.channel().remoteAddress(), cause.toString());
        }
        ctx.close();
    }
}
