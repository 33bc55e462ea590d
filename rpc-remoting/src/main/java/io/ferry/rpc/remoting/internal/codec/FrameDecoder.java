package io.ferry.rpc.remoting.internal.codec;

import io.ferry.rpc.RpcStatus;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;

/**
 * Cuts the byte stream into {@link InboundFrame}s, checking each header before any of its body is buffered.
 *
 * <p>Provider side ({@link Side#PROVIDER}):
 * <ul>
 *   <li>wrong magic: the connection is closed (there is no telnet fallback and no scanning for the next magic);</li>
 *   <li>a request in any serialization but hessian2: answered BAD_REQUEST without reading its body, which is
 *       skipped by its length;</li>
 *   <li>a negative length, or one over the payload limit: answered BAD_REQUEST, then the connection is closed.</li>
 * </ul>
 * Consumer side: wrong magic or a negative length close the connection (every pending call then fails); a body
 * over the payload limit becomes an {@link OversizeResponse} and its bytes are skipped exactly, as they arrive.
 * Event frames (heartbeats, readonly) of any serialization pass through when their body is at most
 * {@value Frame#MAX_EVENT_BODY} bytes.
 */
public final class FrameDecoder extends ByteToMessageDecoder {
    private static final Logger log = LoggerFactory.getLogger(FrameDecoder.class);

    /** Which end of the connection this decoder serves. */
    public enum Side { PROVIDER, CONSUMER }

    private final Side side;
    private final int payloadLimit;
    private long bytesToSkip;

    public FrameDecoder(Side side, int payloadLimit) {
        this.side = side;
        this.payloadLimit = payloadLimit;
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        if (bytesToSkip > 0) {
            int n = (int) Math.min(bytesToSkip, in.readableBytes());
            in.skipBytes(n);
            bytesToSkip -= n;
            return;
        }
        int start = in.readerIndex();
        if (in.readableBytes() >= 2 && in.getShort(start) != Frame.MAGIC
                || in.readableBytes() == 1 && in.getByte(start) != Frame.MAGIC_HIGH) {
            log.warn("{}: not a Dubbo frame (bad magic 0x{}), closing", ctx.channel().remoteAddress(),
                    Integer.toHexString(in.getUnsignedByte(start)));
            in.skipBytes(in.readableBytes());
            ctx.close();
            return;
        }
        if (in.readableBytes() < Frame.HEADER_LENGTH) {
            return;
        }
        byte flag = in.getByte(start + 2);
        byte status = in.getByte(start + 3);
        long id = in.getLong(start + 4);
        int length = in.getInt(start + 12);

        if (length < 0) {
            rejectAndClose(ctx, in, flag, id, "negative body length " + length);
            return;
        }
        if (Frame.isEvent(flag)) {
            if (length > Frame.MAX_EVENT_BODY) {
                log.warn("{}: event frame with a {}-byte body (at most {}), skipped", ctx.channel().remoteAddress(),
                        length, Frame.MAX_EVENT_BODY);
                skip(in, (long) Frame.HEADER_LENGTH + length);
                return;
            }
        } else if (side == Side.PROVIDER && Frame.isRequest(flag)
                && Frame.serialization(flag) != Frame.HESSIAN2) {
            if (Frame.isTwoWay(flag)) {
                ctx.writeAndFlush(FrameEncoder.errorResponse(ctx.alloc(), id, RpcStatus.BAD_REQUEST,
                        "Unsupported serialization id " + Frame.serialization(flag) + " (Ferry speaks hessian2, id 2)"));
            }
            skip(in, (long) Frame.HEADER_LENGTH + length);
            return;
        } else if (length > payloadLimit) {
            if (side == Side.PROVIDER) {
                rejectAndClose(ctx, in, flag, id,
                        "request body of " + length + " bytes exceeds the payload limit of " + payloadLimit);
            } else {
                out.add(new OversizeResponse(id, length, payloadLimit));
                skip(in, (long) Frame.HEADER_LENGTH + length);
            }
            return;
        }
        if (in.readableBytes() < Frame.HEADER_LENGTH + length) {
            return;
        }
        in.skipBytes(Frame.HEADER_LENGTH);
        out.add(new InboundFrame(flag, status, id, in.readRetainedSlice(length)));
    }

    private void skip(ByteBuf in, long total) {
        int n = (int) Math.min(total, in.readableBytes());
        in.skipBytes(n);
        bytesToSkip = total - n;
    }

    private void rejectAndClose(ChannelHandlerContext ctx, ByteBuf in, byte flag, long id, String reason) {
        log.warn("{}: {}, closing", ctx.channel().remoteAddress(), reason);
        in.skipBytes(in.readableBytes());
        if (side == Side.PROVIDER && Frame.isRequest(flag) && Frame.isTwoWay(flag)) {
            ctx.writeAndFlush(FrameEncoder.errorResponse(ctx.alloc(), id, RpcStatus.BAD_REQUEST, reason))
                    .addListener(ChannelFutureListener.CLOSE);
        } else {
            ctx.close();
        }
    }
}
