package io.ferry.rpc.remoting.internal.server;

import io.ferry.rpc.PeerIdentity;
import io.ferry.rpc.remoting.internal.tls.HandshakeFailure;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.ssl.SslHandshakeCompletionEvent;
import io.netty.util.AttributeKey;
import io.ferry.rpc.remoting.internal.log.PeerLog;

import javax.net.ssl.SSLPeerUnverifiedException;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;

/**
 * Follows a TLS port's handshake: on success it records that the handshake is done and, when the consumer
 * presented a certificate the trust collection vouched for, its {@link PeerIdentity}; on failure it logs why
 * (rate-limited: a peer decides how often) and closes the connection, keeping the errors that follow from reaching
 * the handler's log. Removes itself once the handshake succeeded.
 */
final class TlsHandshakes extends ChannelInboundHandlerAdapter {
    private static final AttributeKey<Boolean> DONE = AttributeKey.valueOf("ferry.tls.done");
    private static final AttributeKey<PeerIdentity> IDENTITY = AttributeKey.valueOf("ferry.tls.identity");

    private final PeerLog log;
    private final HandshakeSlots slots;

    TlsHandshakes(PeerLog log, HandshakeSlots slots) {
        this.log = log;
        this.slots = slots;
    }

    private static final AttributeKey<java.util.concurrent.Future<?>> DEADLINE =
            AttributeKey.valueOf("ferry.tls.deadline");

    /** The task that closes {@code channel} if its handshake is not done in time: cancelled when it is. */
    static void deadline(Channel channel, java.util.concurrent.Future<?> task) {
        channel.attr(DEADLINE).set(task);
    }

    /** Whether {@code channel}'s handshake completed. */
    static boolean isDone(Channel channel) {
        return channel.hasAttr(DONE);
    }

    /** The verified identity of {@code channel}'s consumer, or null without mutual TLS. */
    static PeerIdentity identity(Channel channel) {
        return channel.hasAttr(IDENTITY) ? channel.attr(IDENTITY).get() : null;
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object event) throws Exception {
        if (event instanceof SslHandshakeCompletionEvent done) {
            if (done.isSuccess()) {
                ctx.channel().attr(IDENTITY).set(verifiedIdentity(ctx));
                ctx.channel().attr(DONE).set(Boolean.TRUE);
                slots.giveBack(ctx.channel());
                java.util.concurrent.Future<?> deadline = ctx.channel().attr(DEADLINE).getAndSet(null);
                if (deadline != null) {
                    deadline.cancel(false);
                }
                ctx.pipeline().remove(this);
            } else {
                log.info("{}: TLS handshake failed: {}", ctx.channel().remoteAddress(),
                        HandshakeFailure.reason(done.cause()));
            }
        }
        super.userEventTriggered(ctx, event);
    }

    /** Before the handshake is done, an error is the handshake's, already logged above: only close. */
    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        ctx.close();
    }

    private static PeerIdentity verifiedIdentity(ChannelHandlerContext ctx) {
        SslHandler ssl = ctx.pipeline().get(SslHandler.class);
        try {
            Certificate[] chain = ssl.engine().getSession().getPeerCertificates();
            return chain.length > 0 && chain[0] instanceof X509Certificate leaf ? PeerIdentity.of(leaf) : null;
        } catch (SSLPeerUnverifiedException e) {
            return null; // no client certificate asked for, or (optional) none sent
        }
    }
}
