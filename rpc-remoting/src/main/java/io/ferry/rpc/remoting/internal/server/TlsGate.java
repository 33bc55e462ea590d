package io.ferry.rpc.remoting.internal.server;

import io.ferry.rpc.RpcStatus;
import io.ferry.rpc.remoting.internal.codec.Frame;
import io.ferry.rpc.remoting.internal.codec.FrameEncoder;
import io.ferry.rpc.remoting.internal.tls.TlsContext;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.netty.handler.ssl.SslHandler;
import io.ferry.rpc.remoting.internal.log.PeerLog;

import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The first reader of a TLS port's connection: a TLS record hands the connection to an {@link SslHandler}; a plain
 * Dubbo frame is answered BAD_REQUEST with why (so that a consumer without TLS learns it at once, not at its call's
 * timeout) and the connection closed; anything else is closed. The whole handshake, this wait for the first
 * bytes included, must finish within the handshake timeout.
 */
final class TlsGate extends ByteToMessageDecoder {
    /** What SslHandler needs to recognise a record header. */
    private static final int RECORD_HEADER = 5;
    /** The content type of a handshake record: a ClientHello's. */
    private static final byte HANDSHAKE = 0x16;
    /** A ClientHello travels in the clear, and a plaintext record holds at most 2^14 bytes (RFC 8446, 5.1). */
    static final int MAX_FIRST_RECORD = 1 << 14;

    private final TlsContext tls;
    private final PeerLog log;
    private final HandshakeSlots slots;

    TlsGate(TlsContext tls, PeerLog log, HandshakeSlots slots) {
        this.tls = tls;
        this.log = log;
        this.slots = slots;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) throws Exception {
        if (!slots.tryTake(ctx.channel())) {
            note(ctx, slots.max() + " TLS handshakes already running (sslMaxHandshakes); closing");
            ctx.close();
            return;
        }
        long timeout = tls.options().handshakeTimeout().toMillis();
        java.util.concurrent.ScheduledFuture<?> deadline = ctx.executor().schedule(() -> {
            if (!TlsHandshakes.isDone(ctx.channel()) && ctx.channel().isActive()) {
                note(ctx, "no TLS handshake within " + timeout + " ms (sslHandshakeTimeout)");
                ctx.close();
            }
        }, timeout, TimeUnit.MILLISECONDS);
        TlsHandshakes.deadline(ctx.channel(), deadline); // cancelled once the handshake is done
        ctx.channel().closeFuture().addListener(f -> deadline.cancel(false));
        super.channelActive(ctx);
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        if (in.readableBytes() >= 2 && in.getShort(in.readerIndex()) == Frame.MAGIC) {
            refusePlainFrame(ctx, in);
            return;
        }
        if (in.readableBytes() < RECORD_HEADER) {
            return;
        }
        int claimed = in.getUnsignedShort(in.readerIndex() + 3);
        if (in.getByte(in.readerIndex()) == HANDSHAKE && claimed > MAX_FIRST_RECORD) {
            // SslHandler would hold up to 64 KiB a connection waiting for the rest, until the handshake deadline
            closeAfter(ctx, in, "a first TLS record of " + claimed + " bytes, over the " + MAX_FIRST_RECORD
                    + " TLS allows; closing");
            return;
        }
        if (SslHandler.isEncrypted(in, false)) {
            // what this decoder holds is passed on to the SslHandler as it takes this one's place
            ctx.pipeline().replace(this, "tls", tls.newServerHandler(ctx.alloc()));
            return;
        }
        closeAfter(ctx, in, "neither TLS nor a Dubbo frame; closing");
    }

    /** Drops what the peer sent, says why, and closes. */
    private void closeAfter(ChannelHandlerContext ctx, ByteBuf in, String why) {
        in.skipBytes(in.readableBytes());
        note(ctx, why);
        ctx.close();
    }

    private void refusePlainFrame(ChannelHandlerContext ctx, ByteBuf in) {
        if (in.readableBytes() < Frame.HEADER_LENGTH) {
            return; // the header says what to answer; the handshake deadline bounds the wait for it
        }
        int flag = in.getByte(in.readerIndex() + 2);
        long id = in.getLong(in.readerIndex() + 4);
        in.skipBytes(in.readableBytes());
        note(ctx, "a plain Dubbo frame on a TLS port; answered BAD_REQUEST and closing");
        if ((flag & Frame.FLAG_REQUEST) != 0 && (flag & Frame.FLAG_TWO_WAY) != 0) {
            ctx.writeAndFlush(FrameEncoder.errorResponse(ctx.alloc(), id, RpcStatus.BAD_REQUEST,
                    "this provider's port speaks TLS only (ssl-enabled): connect to it with TLS"))
                    .addListener(ChannelFutureListener.CLOSE);
        } else {
            ctx.close();
        }
    }

    private void note(ChannelHandlerContext ctx, String what) {
        log.info("{}: {}", ctx.channel().remoteAddress(), what);
    }
}
