package io.ferry.rpc.remoting.internal.exchange;

import io.ferry.rpc.Deadline;
import io.ferry.rpc.Invocation;
import io.ferry.rpc.Result;
import io.ferry.rpc.RpcException;
import io.ferry.rpc.RpcStatus;
import io.ferry.rpc.Ticker;
import io.ferry.rpc.remoting.ConnectionInfo;
import io.ferry.rpc.remoting.internal.service.MethodSchema;
import io.ferry.rpc.remoting.internal.transport.ChannelStats;
import io.ferry.rpc.remoting.internal.transport.Writability;
import io.ferry.rpc.remoting.internal.transport.Traffic;
import io.ferry.rpc.remoting.internal.codec.InboundFrame;
import io.ferry.rpc.remoting.internal.codec.OversizeResponse;
import io.ferry.rpc.remoting.internal.serialize.SafeSerializerFactory;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelPromise;
import io.ferry.rpc.remoting.internal.transport.CoalescingWriter;
import io.netty.util.Timer;
import io.ferry.rpc.remoting.internal.log.PeerLog;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import io.netty.util.Timeout;
import io.ferry.rpc.remoting.internal.liveness.KeepAliveHandler;
import io.ferry.rpc.remoting.internal.codec.ErrorBodies;
import io.ferry.rpc.remoting.internal.log.ConnectionErrors;
import io.ferry.rpc.spi.WireText;
import io.ferry.rpc.remoting.internal.tls.HandshakeFailure;
import io.ferry.rpc.remoting.internal.codec.Frame;
import io.ferry.rpc.remoting.internal.codec.FrameEncoder;

/**
 * One long TCP connection to a provider and the calls pending on it. Each call gets a fresh request id from this
 * connection's counter (signed 64-bit, starting at a random value, as Dubbo does); the table maps ids to calls.
 *
 * <p>Whoever removes a call from the table completes it: the response, its timeout, a failed write, or the close of
 * the connection, which fails every call still pending at once with an error naming the peer. Its age, the time it
 * spent unwritable and the heartbeat's round trip are measured on the client's {@link Ticker}. Thread-safe.
 */
public final class Connection {
    /** A provider may answer ids it was never sent: limited, even at DEBUG. */
    private static final PeerLog LATE = new PeerLog(Connection.class, Ticker.system());

    private final Channel channel;
    private final String peer;
    private final Timer timer;
    private final Ticker ticker;
    private final Map<Long, PendingCall> pending = new ConcurrentHashMap<>();
    private final AtomicLong ids = new AtomicLong(ThreadLocalRandom.current().nextLong());
    private final long createdNanos;
    private final Writability writability = new Writability();
    private final CoalescingWriter writer;
    /** The client's counters, where this connection's back-pressure pauses count. */
    private final Traffic traffic;
    private volatile boolean readonly;
    private volatile long readinessId;
    private volatile CompletableFuture<Connection> readiness;
    /** What the channel closed on, if it closed on an error. */
    private volatile Throwable closedBy;
    private volatile long heartbeatId;
    private volatile long heartbeatSentNanos;
    private volatile long heartbeatRttNanos = -1;
    private volatile String ioThread = "-";
    private volatile Runnable onWritable = () -> { };

    Connection(Channel channel, String peer, Timer timer, Ticker ticker, Traffic traffic) {
        this.channel = channel;
        this.traffic = traffic;
        this.peer = peer;
        this.timer = timer;
        this.ticker = ticker;
        this.createdNanos = ticker.nanoTime();
        this.writer = new CoalescingWriter(channel);
    }

    /** Whether a call may be written now: the outbound buffer is below its high water mark. */
    public boolean isWritable() {
        return channel.isWritable();
    }

    /** Bytes written and not yet taken by the socket. */
    public long queuedBytes() {
        return ChannelStats.queuedBytes(channel);
    }

    /** Runs on the IO thread each time the connection becomes writable again (its pool wakes waiting calls). */
    public void onWritable(Runnable listener) {
        this.onWritable = listener;
    }

    /** IO thread. */
    void writabilityChanged(boolean writable) {
        writability.changed(writable, ticker.nanoTime());
        if (writable) {
            onWritable.run();
        } else {
            traffic.paused();
        }
    }

    /** IO thread, once the channel is active. */
    void servedBy(Thread thread) {
        this.ioThread = thread.getName();
    }

    /** A heartbeat id to send; its answer gives the connection's round-trip time. */
    public long nextHeartbeatId() {
        long id = nextId();
        heartbeatSentNanos = ticker.nanoTime();
        heartbeatId = id;
        return id;
    }

    /** A snapshot for the connection view, in {@code state} as its slot sees it. */
    public ConnectionInfo snapshot(ConnectionInfo.State state) {
        long now = ticker.nanoTime();
        long rtt = heartbeatRttNanos;
        return new ConnectionInfo(ChannelStats.address(channel.localAddress()), ChannelStats.address(
                channel.remoteAddress()), ioThread, channel.isActive() ? state : ConnectionInfo.State.CLOSED,
                pending.size(), queuedBytes(), Duration.ofNanos(writability.unwritableNanos(now)),
                rtt < 0 ? null : Duration.ofNanos(rtt), Duration.ofNanos(now - createdNanos));
    }

    public Channel channel() {
        return channel;
    }

    public String peer() {
        return peer;
    }

    public boolean isActive() {
        return channel.isActive();
    }

    /** The provider announced it is shutting down ("R" event) and takes no new calls; "W" clears it. */
    public boolean isReadonly() {
        return readonly;
    }

    void readonly(boolean readonly) {
        this.readonly = readonly;
    }

    public int pendingCalls() {
        return pending.size();
    }

    public long nextId() {
        return ids.getAndIncrement();
    }

    /**
     * Sends an encoded request (its id is written here) and returns the future of its answer, which completes on
     * the invocation's executor by its deadline. A one-way call completes when the frame is written. A call whose
     * deadline has already passed is not written. Requests sent meanwhile by other callers share one flush (see
     * {@link CoalescingWriter}). Takes ownership of {@code frame}.
     */
    public CompletableFuture<Result> send(ByteBuf frame, Invocation invocation, MethodSchema method,
                                          SafeSerializerFactory serializerFactory) {
        CompletableFuture<Result> result = new CompletableFuture<>();
        Deadline deadline = invocation.deadline();
        long remaining = deadline.remainingNanos();
        if (remaining <= 0) {
            frame.release();
            result.completeExceptionally(RpcException.notExecuted(RpcStatus.TIMEOUT, invocation.description()
                    + " not sent to " + peer + ": its timeout of " + deadline.timeoutMillis() + " ms had passed",
                    null));
            return result;
        }
        long id = nextId();
        frame.setLong(4, id);
        PendingCall call = new PendingCall(invocation, method, serializerFactory, result);
        pending.put(id, call);
        try {
            call.timeout(timer.newTimeout(t -> expire(id, remaining), remaining, TimeUnit.NANOSECONDS));
        } catch (RuntimeException timerStopped) {
            pending.remove(id);
            frame.release();
            call.fail(RpcException.notExecuted(RpcStatus.ILLEGAL_STATE, invocation.description() + " not sent to "
                    + peer + ": the client is shutting down", timerStopped));
            return result;
        }
        boolean oneway = invocation.oneway();
        ChannelPromise written = channel.newPromise();
        written.addListener(f -> {
            if (!f.isSuccess()) {
                PendingCall failed = pending.remove(id);
                if (failed != null) {
                    failed.fail(RpcException.notExecuted(RpcStatus.NETWORK, "cannot send " + failed.description()
                            + " to " + peer + ": " + f.cause(), f.cause()));
                }
            } else if (oneway) {
                PendingCall done = pending.remove(id);
                if (done != null) {
                    done.sent();
                }
            }
        });
        writer.write(frame, written);
        return result;
    }

    /**
     * Sends a heartbeat and completes when its answer arrives: only then does the connection carry calls. No answer
     * within {@code timeoutNanos} (a connection the kernel accepted but the provider never took from its accept
     * queue, or a peer that is not a Dubbo provider) closes the connection and fails the future.
     */
    public CompletableFuture<Connection> awaitReadiness(long timeoutNanos) {
        CompletableFuture<Connection> ready = new CompletableFuture<>();
        readinessId = nextHeartbeatId();
        readiness = ready;
        Timeout deadline = timer.newTimeout(t -> {
            if (ready.completeExceptionally(RpcException.notExecuted(RpcStatus.NETWORK, "no answer to the "
                    + "readiness ping from " + peer + " within " + TimeUnit.NANOSECONDS.toMillis(timeoutNanos)
                    + " ms (a connection the provider never accepted?)", null))) {
                channel.close();
            }
        }, timeoutNanos, TimeUnit.NANOSECONDS);
        ready.whenComplete((c, e) -> deadline.cancel());
        channel.writeAndFlush(FrameEncoder.heartbeatRequest(channel.alloc(),
                readinessId)).addListener(f -> {
                    if (!f.isSuccess()) {
                        ready.completeExceptionally(RpcException.notExecuted(RpcStatus.NETWORK,
                                "cannot ping " + peer + ": " + f.cause(), f.cause()));
                    }
                });
        return ready;
    }

    /** IO thread: a heartbeat answer arrived. */
    void onHeartbeatAnswer(long id) {
        if (id == heartbeatId) {
            heartbeatRttNanos = ticker.nanoTime() - heartbeatSentNanos;
        }
        CompletableFuture<Connection> ready = readiness;
        if (ready != null && id == readinessId) {
            ready.complete(this);
        }
    }

    /** Timer thread: the call's time is up, {@code sentNanosAgo} after it was sent. */
    private void expire(long id, long sentNanosAgo) {
        PendingCall call = pending.remove(id);
        if (call != null) {
            Deadline deadline = call.deadline();
            call.fail(new RpcException(RpcStatus.TIMEOUT, "no answer from " + peer + " to " + call.description()
                    + " within its timeout of " + deadline.timeoutMillis() + " ms (sent " + call.sentAtMillis()
                    + " ms into the call; request id " + id + ")"));
            if (channel.isActive()) {
                // the keep-alive pings at once if nothing was read since: a path that drops packets is replaced now
                channel.pipeline().fireUserEventTriggered(new KeepAliveHandler.SilentTimeout(sentNanosAgo));
            }
        }
    }

    /** IO thread: an answer arrived. Takes ownership of the frame. */
    void onResponse(InboundFrame frame) {
        PendingCall call = pending.remove(frame.id());
        if (call == null && refusedReadiness(frame)) {
            return;
        }
        if (call == null) {
            LATE.debug("{}: answer to request {} arrived after its call ended", peer, frame.id());
            frame.release();
            return;
        }
        call.answer(frame, peer);
    }

    /**
     * IO thread: an error answer to the readiness ping (a TLS-only port answers a plain ping so) fails the
     * connection's readiness with the provider's words; releases the frame if so.
     */
    private boolean refusedReadiness(InboundFrame frame) {
        CompletableFuture<Connection> ready = readiness;
        if (ready == null || frame.id() != readinessId || frame.status() == Frame.STATUS_OK) {
            return false;
        }
        String why;
        try {
            why = ErrorBodies.readString(frame.serialization(), frame.body());
        } catch (RuntimeException e) {
            why = "status " + frame.status();
        } finally {
            frame.release();
        }
        if (ready.completeExceptionally(RpcException.notExecuted(RpcStatus.NETWORK, peer
                + " refused the connection: " + WireText.escape(why), null))) {
            channel.close();
        }
        return true;
    }

    /** IO thread: an answer too large to accept; only its call fails. */
    void onOversize(OversizeResponse oversize) {
        PendingCall call = pending.remove(oversize.id());
        if (call != null) {
            call.fail(new RpcException(RpcStatus.PAYLOAD_TOO_LARGE, "answer from " + peer + " to "
                    + call.description() + " is " + oversize.length() + " bytes, over the payload limit of "
                    + oversize.limit()));
        }
    }

    /**
     * IO thread: the error the channel is about to close on, for the calls and the readiness wait it ends. With TLS
     * 1.3 a provider checks the consumer's certificate after the consumer's handshake is done: its refusal arrives
     * as an alert here, and is the reason the connection was never ready.
     */
    void closingAfter(Throwable error) {
        if (closedBy == null) {
            closedBy = error;
        }
    }

    /** The channel closed: every call still pending fails now, not at its timeout. */
    void onClosed() {
        CompletableFuture<Connection> ready = readiness;
        if (ready != null) {
            Throwable why = closedBy;
            ready.completeExceptionally(RpcException.notExecuted(RpcStatus.NETWORK,
                    "connection to " + peer + " closed before it was ready" + (why == null ? ""
                            : ConnectionErrors.isHandshakeFailure(why) ? ": the provider refused the TLS handshake: "
                            + HandshakeFailure.reason(why) : ": " + why), why));
        }
        if (pending.isEmpty()) {
            return;
        }
        for (Long id : pending.keySet()) {
            PendingCall call = pending.remove(id);
            if (call != null) {
                // one exception per call: a synchronous caller adds its own stack to what it throws
                call.fail(new RpcException(RpcStatus.NETWORK, "connection to " + peer + " closed while "
                        + call.description() + " waited for its answer"));
            }
        }
    }

    public void close() {
        channel.close();
    }
}
