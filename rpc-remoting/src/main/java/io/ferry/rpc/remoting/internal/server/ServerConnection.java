package io.ferry.rpc.remoting.internal.server;

import io.ferry.rpc.remoting.ConnectionInfo;
import io.ferry.rpc.remoting.internal.transport.ChannelStats;
import io.ferry.rpc.remoting.internal.transport.Traffic;
import io.ferry.rpc.remoting.internal.transport.Writability;
import io.netty.channel.Channel;
import io.netty.util.AttributeKey;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/** What the provider knows of one consumer connection: its requests in flight and its writability. */
final class ServerConnection {
    private static final AttributeKey<ServerConnection> KEY = AttributeKey.valueOf("ferry.server.connection");

    private final Channel channel;
    private final long openedNanos;
    private final String ioThread;
    private final AtomicInteger inFlight = new AtomicInteger();
    /** Places this connection holds in the business pool (its fair share is checked against this). */
    private final AtomicInteger poolPlaces = new AtomicInteger();
    private final Writability writability = new Writability();
    private final AnswerQueue answers;
    /** The server's counters, where this connection's pauses in reading count. */
    private final Traffic traffic;
    // the inbox of the first pool this connection's requests went to (nearly always the only one), and any others
    private BusinessPool sharedPool;
    private RequestInbox<RequestTask> sharedInbox;
    private Map<BusinessPool, RequestInbox<RequestTask>> otherInboxes;

    private ServerConnection(Channel channel, long openedNanos, Traffic traffic) {
        this.channel = channel;
        this.traffic = traffic;
        this.openedNanos = openedNanos;
        this.ioThread = Thread.currentThread().getName();
        this.answers = new AnswerQueue(channel, this::updateReading);
        channel.closeFuture().addListener(f -> answers.dropAll());
    }

    /** IO thread: this connection's inbox for {@code pool}, or null before its first request to that pool. */
    RequestInbox<RequestTask> inbox(BusinessPool pool) {
        if (pool == sharedPool) {
            return sharedInbox;
        }
        return otherInboxes == null ? null : otherInboxes.get(pool);
    }

    /** IO thread: keeps {@code inbox} as this connection's inbox for {@code pool}; returns it. */
    RequestInbox<RequestTask> addInbox(BusinessPool pool, RequestInbox<RequestTask> inbox) {
        if (sharedPool == null) {
            sharedPool = pool;
            sharedInbox = inbox;
        } else {
            if (otherInboxes == null) {
                otherInboxes = new HashMap<>();
            }
            otherInboxes.put(pool, inbox);
        }
        return inbox;
    }

    AnswerQueue answers() {
        return answers;
    }

    /**
     * IO thread: reads from the consumer only while its answers can go out, i.e. its connection is writable and no
     * backlog of answers waits for it (see {@link AnswerQueue#backlogged()}).
     */
    void updateReading() {
        boolean read = channel.isWritable() && !answers.backlogged();
        if (!read && channel.config().isAutoRead()) {
            traffic.paused();
        }
        channel.config().setAutoRead(read);
    }

    /** IO thread, as the connection becomes active. */
    static ServerConnection open(Channel channel, long nowNanos, Traffic traffic) {
        ServerConnection connection = new ServerConnection(channel, nowNanos, traffic);
        channel.attr(KEY).set(connection);
        return connection;
    }

    static ServerConnection of(Channel channel) {
        return channel.attr(KEY).get();
    }

    void requestStarted() {
        inFlight.incrementAndGet();
    }

    AtomicInteger poolPlaces() {
        return poolPlaces;
    }

    void requestEnded() {
        inFlight.decrementAndGet();
    }

    Writability writability() {
        return writability;
    }

    /** {@code whileOpen}: the state to show while the channel is open (READY, READONLY or DRAINING). */
    ConnectionInfo snapshot(long nowNanos, ConnectionInfo.State whileOpen) {
        ConnectionInfo.State state = !channel.isActive() ? ConnectionInfo.State.CLOSED : whileOpen;
        return new ConnectionInfo(ChannelStats.address(channel.localAddress()),
                ChannelStats.address(channel.remoteAddress()), ioThread, state, inFlight.get(),
                ChannelStats.queuedBytes(channel) + answers.waitingBytes(), Duration.ofNanos(writability.unwritableNanos(nowNanos)), null,
                Duration.ofNanos(nowNanos - openedNanos));
    }
}
