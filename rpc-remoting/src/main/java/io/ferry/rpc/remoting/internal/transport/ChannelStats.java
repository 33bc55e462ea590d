package io.ferry.rpc.remoting.internal.transport;

import io.netty.channel.Channel;
import io.netty.channel.ChannelOutboundBuffer;

import java.net.InetSocketAddress;
import java.net.SocketAddress;

/** What a channel can tell about itself from any thread, without blocking its event loop. */
public final class ChannelStats {
    private ChannelStats() {
    }

    /** Bytes written to the channel and not yet taken by the socket. */
    public static long queuedBytes(Channel channel) {
        ChannelOutboundBuffer buffer = channel.unsafe().outboundBuffer();
        return buffer == null ? 0 : buffer.totalPendingWriteBytes();
    }

    public static String address(SocketAddress address) {
        if (address instanceof InetSocketAddress inet) {
            return inet.getAddress() == null ? inet.getHostString() + ":" + inet.getPort()
                    : inet.getAddress().getHostAddress() + ":" + inet.getPort();
        }
        return String.valueOf(address);
    }
}
