package io.ferry.rpc.remoting.internal.codec;

import io.ferry.rpc.RpcStatus;
import io.ferry.rpc.Ticker;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.netty.util.concurrent.Future;
import io.ferry.rpc.remoting.internal.log.PeerLog;

import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Cuts the byte stream into {@link InboundFrame}s, checking each header before any of its body is buffered. Every
 * two-way request either gets exactly one answer or sees its connection closed. In order:
 * <ul>
 *   <li>wrong magic or a negative length: the connection is closed (there is no telnet fallback and no scanning
 *       for the next magic);</li>
 *   <li>a body over the payload limit, whatever the frame: provider side, answered BAD_REQUEST, then the connection
 *       is closed; consumer side, an answer becomes an {@link OversizeResponse} and its bytes are skipped exactly,
 *       as they arrive (anything else that large closes the connection);</li>
 *   <li>an event whose body is over {@value Frame#MAX_EVENT_BODY} bytes, as Dubbo refuses them: answered
 *       BAD_REQUEST if it is a two-way request, and its body skipped;</li>
 *   <li>provider side, a request in any serialization but hessian2: answered BAD_REQUEST without reading its body,
 *       which is skipped.</li>
 * </ul>
 * Event frames (heartbeats, readonly) pass in any serialization.
 *
 * <p>With {@link PartialFrames} limits (the provider's): a frame must be complete within the frame timeout of its
 * first byte, and a frame that arrives in pieces first takes its declared size from the shared budget; a frame
 * that misses its deadline, or finds the budget spent, is answered BAD_REQUEST and its connection closed. Time
 * comes from the channel's event loop, so an {@code EmbeddedChannel} with a mock ticker tests it.
 */
public final class FrameDecoder extends ByteToMessageDecoder {
    /** For decoders made without a server's logs (the consumer's): one limit for the whole process. */
    private static final PeerLog SHARED_LOG = new PeerLog(FrameDecoder.class, Ticker.system());

    /** Which end of the connection this decoder serves. */
    public enum Side { PROVIDER, CONSUMER }

    private final Side side;
    private final int payloadLimit;
    private final PartialFrames limits;
    /** Every line here is about a peer's bytes: limited, as the peer chooses how many. */
    private final PeerLog log;
    private long bytesToSkip;
    /** Event-loop time of the first byte of the frame still incomplete; -1 when none is. */
    private long partialSinceNanos = -1;
    /** What the incomplete frame holds of the budget. */
    private long heldBytes;
    private Future<?> deadline;
    private boolean failed;

    public FrameDecoder(Side side, int payloadLimit) {
        this(side, payloadLimit, PartialFrames.unlimited());
    }

    public FrameDecoder(Side side, int payloadLimit, PartialFrames limits) {
        this(side, payloadLimit, limits, SHARED_LOG);
    }

    /** {@code log}: where the lines about refused frames go, a server's own. */
    public FrameDecoder(Side side, int payloadLimit, PartialFrames limits, PeerLog log) {
        this.side = side;
        this.payloadLimit = payloadLimit;
        this.limits = limits;
        this.log = log;
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        if (failed) {
            in.skipBytes(in.readableBytes());
            return;
        }
        if (bytesToSkip > 0) {
            int n = (int) Math.min(bytesToSkip, in.readableBytes());
            in.skipBytes(n);
            bytesToSkip -= n;
            if (bytesToSkip == 0) {
                frameComplete();
            }
            return;
        }
        int start = in.readerIndex();
        if (in.readableBytes() >= 2 && in.getShort(start) != Frame.MAGIC
                || in.readableBytes() == 1 && in.getByte(start) != Frame.MAGIC_HIGH) {
            log.warn("{}: not a Dubbo frame (bad magic 0x{}), closing", ctx.channel().remoteAddress(),
                    Integer.toHexString(in.getUnsignedByte(start)));
            fail(ctx, in);
            ctx.close();
            return;
        }
        if (in.readableBytes() < Frame.HEADER_LENGTH) {
            incomplete(ctx, in, 0);
            return;
        }
        byte flag = in.getByte(start + 2);
        byte status = in.getByte(start + 3);
        long id = in.getLong(start + 4);
        int length = in.getInt(start + 12);
        boolean twoWayRequest = Frame.isRequest(flag) && Frame.isTwoWay(flag);

        if (length < 0) {
            rejectAndClose(ctx, in, flag, id, "negative body length " + length);
            return;
        }
        if (length > payloadLimit) {
            if (side == Side.CONSUMER && !Frame.isRequest(flag) && !Frame.isEvent(flag)) {
                out.add(new OversizeResponse(id, length, payloadLimit));
                skip(ctx, in, (long) Frame.HEADER_LENGTH + length);
            } else {
                rejectAndClose(ctx, in, flag, id, (Frame.isRequest(flag) ? "request" : "frame") + " body of "
                        + length + " bytes exceeds the payload limit of " + payloadLimit);
            }
            return;
        }
        if (Frame.isEvent(flag) && length > Frame.MAX_EVENT_BODY) {
            log.warn("{}: event frame with a {}-byte body (at most {}), refused", ctx.channel().remoteAddress(),
                    length, Frame.MAX_EVENT_BODY);
            if (twoWayRequest) {
                ctx.writeAndFlush(FrameEncoder.errorResponse(ctx.alloc(), id, RpcStatus.BAD_REQUEST, "event body of "
                        + length + " bytes refused (at most " + Frame.MAX_EVENT_BODY + ")"));
            }
            skip(ctx, in, (long) Frame.HEADER_LENGTH + length);
            return;
        }
        if (side == Side.PROVIDER && Frame.isRequest(flag) && !Frame.isEvent(flag)
                && Frame.serialization(flag) != Frame.HESSIAN2) {
            if (twoWayRequest) {
                ctx.writeAndFlush(FrameEncoder.errorResponse(ctx.alloc(), id, RpcStatus.BAD_REQUEST,
                        "Unsupported serialization id " + Frame.serialization(flag) + " (Ferry speaks hessian2, id 2)"));
            }
            skip(ctx, in, (long) Frame.HEADER_LENGTH + length);
            return;
        }
        if (in.readableBytes() < Frame.HEADER_LENGTH + length) {
            incomplete(ctx, in, Frame.HEADER_LENGTH + length);
            return;
        }
        in.skipBytes(Frame.HEADER_LENGTH);
        out.add(new InboundFrame(flag, status, id, in.readRetainedSlice(length)));
        frameComplete();
    }

    private void skip(ChannelHandlerContext ctx, ByteBuf in, long total) {
        int n = (int) Math.min(total, in.readableBytes());
        in.skipBytes(n);
        bytesToSkip = total - n;
        if (bytesToSkip > 0) {
            incomplete(ctx, in, 0); // skipped bytes are not held, but the frame still has its deadline
        } else {
            frameComplete();
        }
    }

    /**
     * The frame at the reader index has not all arrived: start its clock if this is its first piece, and once its
     * size is known ({@code frameBytes > 0}) take that size from the budget.
     */
    private void incomplete(ChannelHandlerContext ctx, ByteBuf in, long frameBytes) {
        if (partialSinceNanos < 0) {
            partialSinceNanos = ctx.executor().ticker().nanoTime();
        }
        if (frameBytes > 0 && heldBytes == 0) {
            if (!limits.tryHold(frameBytes)) {
                rejectAndClose(ctx, in, in.getByte(in.readerIndex() + 2), in.getLong(in.readerIndex() + 4),
                        "a " + frameBytes + "-byte frame arriving in pieces would overdraw the budget of "
                                + limits.budgetBytes() + " bytes for incomplete frames");
                return;
            }
            heldBytes = frameBytes;
        }
        if (deadline == null && limits.frameTimeoutNanos() > 0) {
            armDeadline(ctx, limits.frameTimeoutNanos());
        }
    }

    private void frameComplete() {
        partialSinceNanos = -1;
        releaseHeld();
    }

    private void releaseHeld() {
        limits.release(heldBytes);
        heldBytes = 0;
    }

    /**
     * One timer per connection at most, and none for frames that arrive whole: when it fires for a frame that has
     * since completed, it re-arms for the one now incomplete, if any.
     */
    private void armDeadline(ChannelHandlerContext ctx, long delayNanos) {
        deadline = ctx.executor().schedule(() -> {
            deadline = null;
            if (partialSinceNanos < 0 || failed) {
                return;
            }
            long waited = ctx.executor().ticker().nanoTime() - partialSinceNanos;
            long timeout = limits.frameTimeoutNanos();
            if (waited < timeout) {
                armDeadline(ctx, timeout - waited);
                return;
            }
            ByteBuf in = internalBuffer();
            String reason = "frame incomplete " + TimeUnit.NANOSECONDS.toMillis(waited) + " ms after its first byte"
                    + " (the frame timeout is " + TimeUnit.NANOSECONDS.toMillis(timeout) + " ms)";
            if (bytesToSkip == 0 && in.readableBytes() >= Frame.HEADER_LENGTH) {
                rejectAndClose(ctx, in, in.getByte(in.readerIndex() + 2), in.getLong(in.readerIndex() + 4), reason);
            } else {
                log.warn("{}: {}, closing", ctx.channel().remoteAddress(), reason);
                fail(ctx, in);
                ctx.close();
            }
        }, delayNanos, TimeUnit.NANOSECONDS);
    }

    private void fail(ChannelHandlerContext ctx, ByteBuf in) {
        failed = true;
        in.skipBytes(in.readableBytes());
        partialSinceNanos = -1;
        releaseHeld();
    }

    private void rejectAndClose(ChannelHandlerContext ctx, ByteBuf in, byte flag, long id, String reason) {
        log.warn("{}: {}, closing", ctx.channel().remoteAddress(), reason);
        fail(ctx, in);
        if (side == Side.PROVIDER && Frame.isRequest(flag) && Frame.isTwoWay(flag)) {
            ctx.writeAndFlush(FrameEncoder.errorResponse(ctx.alloc(), id, RpcStatus.BAD_REQUEST, reason))
                    .addListener(ChannelFutureListener.CLOSE);
        } else {
            ctx.close();
        }
    }

    /** A frame cut short by the close can never complete: drop it rather than decode it. */
    @Override
    protected void decodeLast(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        in.skipBytes(in.readableBytes());
    }

    @Override
    protected void handlerRemoved0(ChannelHandlerContext ctx) {
        if (deadline != null) {
            deadline.cancel(false);
            deadline = null;
        }
        partialSinceNanos = -1;
        releaseHeld();
    }
}
