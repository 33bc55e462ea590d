package io.ferry.rpc.remoting.internal.transport;

import io.netty.channel.Channel;
import io.netty.channel.DefaultEventLoopGroup;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.local.LocalChannel;

import java.util.concurrent.TimeUnit;

/** A channel whose event loop has stopped: every task given to it is rejected. */
public final class OrphanChannel {
    private OrphanChannel() {
    }

    public static Channel create() {
        EventLoopGroup loop = new DefaultEventLoopGroup(1);
        LocalChannel orphan = new LocalChannel();
        loop.register(orphan).syncUninterruptibly();
        loop.shutdownGracefully(0, 0, TimeUnit.SECONDS).syncUninterruptibly();
        return orphan;
    }
}
