package io.ferry.rpc.remoting.internal.log;

import java.io.IOException;
import java.nio.channels.ClosedChannelException;
import java.util.Locale;

/** Tells the errors that only say the peer went away (reset, broken pipe) from the ones worth a warning. */
public final class ConnectionErrors {
    private ConnectionErrors() {
    }

    /**
     * Whether {@code error} means the peer closed or reset the connection: NIO's {@code SocketException}
     * ("Connection reset"), epoll's native errors ("... failed: Connection reset by peer", "Broken pipe"), a write
     * on a channel already closed. Nothing to warn about: a peer may leave at any time.
     */
    public static boolean isPeerGone(Throwable error) {
        if (error instanceof ClosedChannelException) {
            return true;
        }
        if (!(error instanceof IOException) || error.getMessage() == null) {
            return false;
        }
        String message = error.getMessage().toLowerCase(Locale.ROOT);
        return message.contains("connection reset") || message.contains("broken pipe");
    }

    /**
     * Whether {@code error} is a TLS handshake's failure (as Netty raises it, wrapped in a decoder exception or
     * not): the consumer's connect attempt reports it with its reason, and the provider's handshake watch logs it.
     */
    public static boolean isHandshakeFailure(Throwable error) {
        for (Throwable t = error; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof javax.net.ssl.SSLHandshakeException) {
                return true;
            }
        }
        return false;
    }
}
