package io.ferry.rpc.remoting.internal.exchange;

import io.ferry.rpc.Ticker;
import io.ferry.rpc.remoting.internal.transport.Traffic;
import io.netty.channel.Channel;
import io.netty.util.AttributeKey;
import io.netty.util.Timer;

/** Creates the {@link Connection} of a client channel as the channel is initialised, before any byte is read. */
public final class Connections {
    private static final AttributeKey<Connection> CONNECTION = AttributeKey.valueOf("ferry.connection");

    private Connections() {
    }

    /** {@code ticker} measures the connection's age, time unwritable and heartbeat round trip. */
    public static Connection bind(ClientHandler handler, Channel channel, String peer, Timer timer, Ticker ticker) {
        return bind(handler, channel, peer, timer, ticker, new Traffic());
    }

    /** As above, counting the connection's back-pressure pauses in its client's {@code traffic}. */
    public static Connection bind(ClientHandler handler, Channel channel, String peer, Timer timer, Ticker ticker,
                                  Traffic traffic) {
        Connection connection = new Connection(channel, peer, timer, ticker, traffic);
        channel.attr(CONNECTION).set(connection);
        handler.bind(connection);
        return connection;
    }

    public static Connection of(Channel channel) {
        return channel.attr(CONNECTION).get();
    }
}
