package io.ferry.rpc.remoting.internal.exchange;

import io.netty.channel.Channel;
import io.netty.util.AttributeKey;
import io.netty.util.Timer;

/** Creates the {@link Connection} of a client channel as the channel is initialised, before any byte is read. */
public final class Connections {
    private static final AttributeKey<Connection> CONNECTION = AttributeKey.valueOf("ferry.connection");

    private Connections() {
    }

    public static Connection bind(ClientHandler handler, Channel channel, String peer, Timer timer) {
        Connection connection = new Connection(channel, peer, timer);
        channel.attr(CONNECTION).set(connection);
        handler.bind(connection);
        return connection;
    }

    public static Connection of(Channel channel) {
        return channel.attr(CONNECTION).get();
    }
}
