package io.ferry.rpc.remoting.fuzz;

import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;

import java.util.ArrayList;
import java.util.List;

/**
 * Sits between the frame decoder and the handler behind it and remembers every exception that travels the
 * pipeline: the decoder refuses bad input with answers and closes, never with an exception, so any is a finding.
 */
@ChannelHandler.Sharable
public final class PipelineSpy extends ChannelInboundHandlerAdapter {
    private final List<Throwable> seen = new ArrayList<>();

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        seen.add(cause);
        ctx.fireExceptionCaught(cause);
    }

    public void assertNoException() {
        if (!seen.isEmpty()) {
            AssertionError error = new AssertionError("an exception reached the pipeline: " + seen.get(0));
            seen.forEach(error::addSuppressed);
            seen.clear();
            throw error;
        }
    }
}
