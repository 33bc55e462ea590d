package io.ferry.rpc.remoting.internal.server;

import io.ferry.rpc.PeerIdentity;
import io.ferry.rpc.Ticker;
import io.ferry.rpc.remoting.internal.log.PeerLog;
import io.ferry.rpc.remoting.internal.tls.TlsContext;
import io.netty.channel.Channel;
import io.netty.channel.ChannelPipeline;

/**
 * What a TLS port puts in front of each connection's decoder: the gate that tells a handshake from plain frames
 * and garbage, and the watcher of the handshake. One per server: its log is shared by every connection.
 */
public final class TlsPipeline {
    private final TlsContext context;
    /** What peers of the TLS port cause: failed handshakes, garbage, plain frames, silence. */
    private final PeerLog log;

    private final HandshakeSlots slots;

    public TlsPipeline(TlsContext context, Ticker ticker) {
        this.context = context;
        this.log = new PeerLog(TlsGate.class, ticker);
        this.slots = new HandshakeSlots(context.options().maxHandshakes());
    }

    public void addTo(ChannelPipeline pipeline) {
        pipeline.addLast("tls-gate", new TlsGate(context, log, slots))
                .addLast("tls-handshake", new TlsHandshakes(log, slots));
    }

    /** The verified identity of {@code channel}'s consumer, or null when it is not a mutual-TLS connection. */
    static PeerIdentity identity(Channel channel) {
        return TlsHandshakes.identity(channel);
    }
}
