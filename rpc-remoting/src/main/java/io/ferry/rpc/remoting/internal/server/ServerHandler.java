package io.ferry.rpc.remoting.internal.server;

import io.ferry.rpc.RpcStatus;
import io.ferry.rpc.Ticker;
import io.ferry.rpc.remoting.Dispatcher;
import io.ferry.rpc.remoting.internal.service.ServiceTable;
import io.ferry.rpc.remoting.internal.codec.FrameEncoder;
import io.ferry.rpc.remoting.internal.codec.InboundFrame;
import io.ferry.rpc.remoting.ConnectionInfo;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.group.ChannelGroup;
import io.ferry.rpc.remoting.internal.log.ConnectionErrors;

import java.net.InetSocketAddress;
import io.ferry.rpc.remoting.internal.transport.Traffic;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.Map;
import java.util.List;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.atomic.AtomicInteger;
import io.netty.handler.timeout.IdleStateEvent;

/**
 * The provider's IO-thread handler, shared by all connections: answers heartbeats itself (an echo of the request,
 * pre-sized, no business-pool hop), ignores other events,
 * and hands each request to the business pool through its connection's {@link RequestInbox}. It never decodes a
 * body or runs service code.
 */
@ChannelHandler.Sharable
public final class ServerHandler extends ChannelInboundHandlerAdapter {
    /**
     * Drainers per connection inbox while its requests are quick: one per core but one, so that a single busy
     * connection's drainers leave a core to the IO thread that reads their requests and writes their answers.
     */
    private static final int PARALLELISM = Math.max(1, Runtime.getRuntime().availableProcessors() - 1);

    /** Reads a frame into a call: one for all requests, it holds nothing of any one. */
    private final RequestDecoder decoder;
    private final BusinessPools pools;
    private final Dispatcher dispatcher;
    private final Ticker ticker;
    private final int payloadLimit;
    private final ChannelGroup channels;
    private final int accepts;
    private final InFlight inFlight;
    private final ProviderLogs logs;
    private final LongAdder heartbeats = new LongAdder();
    /** Bytes each way and back-pressure pauses of every connection of this server. */
    private final Traffic traffic = new Traffic();
    private final AtomicInteger open = new AtomicInteger();
    private volatile String localAddress = "?";
    /** Readonly announced (an operator's offline, or a shutdown): consumers that connect now are told at once. */
    private volatile boolean readonly;

    /** {@code ticker} times requests' deadlines, connections' age and back-pressure, and the shutdown's wait. */
    public ServerHandler(ServiceTable services, BusinessPools pools, Dispatcher dispatcher, int payloadLimit,
                         ChannelGroup channels, int accepts, Ticker ticker) {
        this(services, pools, dispatcher, payloadLimit, channels, accepts, ticker, new ProviderLogs(ticker));
    }

    /** As above, logging what peers cause through the server's {@code logs}. */
    public ServerHandler(ServiceTable services, BusinessPools pools, Dispatcher dispatcher, int payloadLimit,
                         ChannelGroup channels, int accepts, Ticker ticker, ProviderLogs logs) {
        this.ticker = ticker;
        this.logs = logs;
        this.decoder = new RequestDecoder(services, ticker);
        this.inFlight = new InFlight(ticker);
        this.pools = pools;
        this.dispatcher = dispatcher;
        this.payloadLimit = payloadLimit;
        this.channels = channels;
        this.accepts = accepts;
    }

    public void localAddress(InetSocketAddress address) {
        this.localAddress = address.getHostString() + "," + address.getPort();
    }

    /** From now on, requests are answered SHUTTING_DOWN without running. */
    public void refuseRequests() {
        inFlight.refuse();
    }

    public InFlight inFlight() {
        return inFlight;
    }

    /**
     * Sends Dubbo's readonly ("R", {@code readonly} true) or writeable ("W") event to every open connection, and to
     * each that opens from now on until the next call, so that consumers stop or resume choosing this provider.
     * Closes nothing. Returns how many connections were told.
     */
    public int announce(boolean readonly) {
        this.readonly = readonly; // before the sweep: a connection opening meanwhile is told by one or the other
        int told = 0;
        for (Channel ch : channels) {
            ch.writeAndFlush(FrameEncoder.readonlyEvent(ch.alloc(), 0, readonly));
            told++;
        }
        return told;
    }

    public boolean isReadonly() {
        return readonly;
    }

    public long heartbeatsAnswered() {
        return heartbeats.sum();
    }

    /** The counters of this server's connections: the server's byte counter adds to them too. */
    public Traffic traffic() {
        return traffic;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) throws Exception {
        if (accepts > 0 && open.incrementAndGet() > accepts) {
            open.decrementAndGet();
            logs.connections.warn("{}: over the accepts limit of {} connections; closing it",
                    ctx.channel().remoteAddress(), accepts);
            ctx.close();
            return;
        }
        ServerConnection.open(ctx.channel(), ticker.nanoTime(), traffic);
        channels.add(ctx.channel());
        if (readonly) {
            ctx.writeAndFlush(FrameEncoder.readonlyEvent(ctx.alloc(), 0, true));
        }
        ctx.channel().closeFuture().addListener(f -> {
            if (accepts > 0) {
                open.decrementAndGet();
            }
        });
        super.channelActive(ctx);
    }

    /**
     * Back-pressure: a consumer that does not read its answers fills this connection's outbound buffer; past the
     * high water mark nothing more is read from it (requests already read still run and are answered), and reading
     * resumes once the buffer drains below the low mark; the same holds for the answers waiting in Ferry's own
     * queue ({@link AnswerQueue#backlogged()}). Memory per slow reader stays within the marks plus the answers to
     * the requests it has in flight, and other connections are not affected.
     */
    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) throws Exception {
        boolean writable = ctx.channel().isWritable();
        ServerConnection connection = ServerConnection.of(ctx.channel());
        if (connection == null) {
            ctx.channel().config().setAutoRead(writable);
        } else {
            connection.writability().changed(writable, ticker.nanoTime());
            connection.updateReading();
            if (writable) {
                connection.answers().writable();
            }
        }
        super.channelWritabilityChanged(ctx);
    }

    /** A snapshot of every open connection. */
    public List<ConnectionInfo> connections(boolean draining) {
        long now = ticker.nanoTime();
        ConnectionInfo.State whileOpen = whileOpen(draining);
        List<ConnectionInfo> all = new ArrayList<>();
        for (Channel channel : channels) {
            ServerConnection connection = ServerConnection.of(channel);
            if (connection != null) {
                all.add(connection.snapshot(now, whileOpen));
            }
        }
        return all;
    }

    /** How many open connections are in each state (every state present, 0 when none is), without snapshots. */
    public Map<ConnectionInfo.State, Integer> connectionCounts(boolean draining) {
        Map<ConnectionInfo.State, Integer> counts = new EnumMap<>(ConnectionInfo.State.class);
        for (ConnectionInfo.State state : ConnectionInfo.State.values()) {
            counts.put(state, 0);
        }
        ConnectionInfo.State whileOpen = whileOpen(draining);
        for (Channel channel : channels) {
            counts.merge(channel.isActive() ? whileOpen : ConnectionInfo.State.CLOSED, 1, Integer::sum);
        }
        return counts;
    }

    /** What an open connection is now: the one answer for the view and the counts. */
    private ConnectionInfo.State whileOpen(boolean draining) {
        return draining ? ConnectionInfo.State.DRAINING
                : readonly ? ConnectionInfo.State.READONLY : ConnectionInfo.State.READY;
    }

    /** No reads for three heartbeat intervals: the consumer is gone, or its path is. */
    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object event) throws Exception {
        if (event instanceof IdleStateEvent) {
            logs.connections.info("{}: nothing read for 3 heartbeat intervals; closing",
                    ctx.channel().remoteAddress());
            ctx.close();
            return;
        }
        super.userEventTriggered(ctx, event);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        InboundFrame frame = (InboundFrame) msg;
        if (frame.isEvent() || !frame.isRequest()) {
            try {
                // any two-way event is a heartbeat, whatever its serialization (a fastjson2 one included): echo it
                if (frame.isEvent() && frame.isRequest() && frame.isTwoWay()) {
                    heartbeats.increment();
                    ctx.writeAndFlush(FrameEncoder.heartbeatResponse(ctx.alloc(), frame));
                }
            } finally {
                frame.release();
            }
            return;
        }
        if (!inFlight.tryBegin()) {
            refuseShuttingDown(ctx, frame);
            return;
        }
        ServerConnection connection = ServerConnection.of(ctx.channel());
        if (connection == null) {
            connection = ServerConnection.open(ctx.channel(), ticker.nanoTime(), traffic); // added when active
        }
        ServerConnection counted = connection;
        counted.requestStarted();
        Runnable done = () -> {
            counted.requestEnded();
            inFlight.end();
        };
        if (dispatcher == Dispatcher.DIRECT) {
            new RequestTask(ctx.channel(), frame, decoder, payloadLimit, done, ticker, () -> { }, logs).run();
            return;
        }
        BusinessPool pool = pools.forRequest(frame);
        Admission.Ticket ticket = pool.tryAdmit(counted.poolPlaces(), channels::size);
        if (ticket == null) {
            pool.refused();
            done.run();
            frame.release();
            if (frame.isTwoWay()) {
                ctx.writeAndFlush(FrameEncoder.errorResponse(ctx.alloc(), frame.id(), RpcStatus.THREADPOOL_EXHAUSTED,
                        "Server side(" + localAddress + ") thread pool is exhausted, detail msg: "
                                + pool.describeRefusal(counted.poolPlaces().get(), channels.size())));
            }
            return;
        }
        RequestInbox<RequestTask> inbox = counted.inbox(pool);
        if (inbox == null) {
            inbox = counted.addInbox(pool, new RequestInbox<>(pool::execute, ctx.channel().eventLoop(), PARALLELISM,
                    unrun -> unrun.refuseUnrun(RpcStatus.SHUTTING_DOWN, shuttingDown())));
        }
        inbox.add(new RequestTask(ctx.channel(), frame, decoder, payloadLimit, done, ticker, ticket, logs));
    }

    private String shuttingDown() {
        return RpcStatus.SHUTTING_DOWN_PREFIX + "try another provider (" + localAddress + ")";
    }

    /** Answers SHUTTING_DOWN (not executed: try another provider) and drops the request. */
    private void refuseShuttingDown(ChannelHandlerContext ctx, InboundFrame frame) {
        frame.release();
        if (frame.isTwoWay()) {
            ctx.writeAndFlush(FrameEncoder.errorResponse(ctx.alloc(), frame.id(), RpcStatus.SHUTTING_DOWN,
                    shuttingDown()));
        }
    }

    /** A reset by the peer is only DEBUG: a peer may leave at any time, and thousands may leave at once. */
    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        if (ConnectionErrors.isPeerGone(cause)) {
            logs.resets.debug("{}: closed by the peer: {}", ctx.channel().remoteAddress(), cause.toString());
        } else {
            logs.connections.warn("{}: closing after an error: {}", ctx.channel().remoteAddress(), cause.toString());
        }
        ctx.close();
    }
}
