package io.ferry.rpc.remoting.internal.server;

import io.ferry.rpc.PeerIdentity;
import io.ferry.rpc.Ticker;
import io.ferry.rpc.remoting.internal.tls.TlsContext;
import io.netty.channel.Channel;
import io.netty.channel.ChannelPipeline;

/**
 * What a TLS port puts in front of each connection's decoder: the gate that tells a handshake from plain frames
 * and garbage, and the watcher of the handshake. One per server: its log limiter is shared by every connection.
 */
public final class TlsPipeline {
    private final TlsContext context;
    private final LogLimiter logLimiter;

    public TlsPipeline(TlsContext context, Ticker ticker) {
        this.context = context;
        this.logLimiter = TlsGate.newLogLimiter(ticker);
    }

    public void addTo(ChannelPipeline pipeline) {
        pipeline.addLast("tls-gate", new TlsGate(context, logLimiter))
                .addLast("tls-handshake", new TlsHandshakes(logLimiter));
    }

    /** The verified identity of {@code channel}'s consumer, or null when it is not a mutual-TLS connection. */
    static PeerIdentity identity(Channel channel) {
        return TlsHandshakes.identity(channel);
    }
}
