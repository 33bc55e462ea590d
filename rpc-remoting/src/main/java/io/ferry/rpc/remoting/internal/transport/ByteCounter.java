package io.ferry.rpc.remoting.internal.transport;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;

/**
 * Counts the bytes that pass it each way into one side's {@link Traffic}. Placed after TLS and before the frame
 * decoder, so it sees Dubbo frames in the clear: one adder per socket read and per frame written, nothing else.
 */
@ChannelHandler.Sharable
public final class ByteCounter extends ChannelDuplexHandler {
    private final Traffic traffic;

    public ByteCounter(Traffic traffic) {
        this.traffic = traffic;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (msg instanceof ByteBuf buf) {
            traffic.read(buf.readableBytes());
        }
        ctx.fireChannelRead(msg);
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
        if (msg instanceof ByteBuf buf) {
            traffic.written(buf.readableBytes());
        }
        ctx.write(msg, promise);
    }
}
