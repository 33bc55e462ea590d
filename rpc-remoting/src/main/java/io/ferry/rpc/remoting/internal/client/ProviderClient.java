package io.ferry.rpc.remoting.internal.client;

import io.ferry.rpc.Deadline;
import io.ferry.rpc.EchoService;
import io.ferry.rpc.Invocation;
import io.ferry.rpc.Result;
import io.ferry.rpc.RpcException;
import io.ferry.rpc.RpcStatus;
import io.ferry.rpc.remoting.ClientOptions;
import io.ferry.rpc.remoting.ProviderEndpoint;
import io.ferry.rpc.remoting.internal.codec.Frame;
import io.ferry.rpc.remoting.internal.codec.FrameEncoder;
import io.ferry.rpc.remoting.internal.codec.RequestCodec;
import io.ferry.rpc.remoting.internal.exchange.Connection;
import io.ferry.rpc.remoting.internal.service.MethodSchema;
import io.ferry.rpc.remoting.internal.service.ServiceSchema;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.util.Timeout;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BiConsumer;

/**
 * The consumer's invoker for one provider address. By default it uses the shared connection to that address;
 * with {@code connections = N} it owns N connections on N distinct IO threads and spreads calls over them round
 * robin. Connects at once, or on the first call when {@code lazy}; reconnects in the background after a connection
 * is lost. Thread-safe.
 *
 * <p>A call is encoded on the thread that makes it when a connection is ready, else on the call's executor once one
 * is (never on an IO thread), so the remaining time it carries ({@code _TO}) is the time really left. A call whose
 * deadline has passed is never written.
 */
public final class ProviderClient implements ProviderEndpoint {
    private final ClientResources resources;
    private final InetSocketAddress address;
    private final String addressText;
    private final ServiceSchema schema;
    private final ClientOptions options;
    private final int weight;
    private final ConnectionPool pool;
    private final boolean usesShared;
    private final AtomicBoolean closed = new AtomicBoolean();

    public ProviderClient(ClientResources resources, InetSocketAddress address, ServiceSchema schema,
                          ClientOptions options, int weight, Duration connectSpread) {
        this.resources = resources;
        this.address = address;
        this.addressText = address.getHostString() + ":" + address.getPort();
        this.schema = schema;
        this.options = options;
        this.weight = weight;
        this.usesShared = options.connections() == 0;
        this.pool = usesShared ? resources.acquireShared(address, options)
                : resources.ownPool(address, options, options.connections());
        if (!options.lazy()) {
            for (ConnectionSlot slot : pool.slots()) {
                slot.connectSoon(connectSpread.toNanos());
            }
        }
    }

    /** For tests that drive the pool's sizing by hand. */
    ConnectionPool pool() {
        return pool;
    }

    @Override
    public InetSocketAddress socketAddress() {
        return address;
    }

    @Override
    public String address() {
        return addressText;
    }

    @Override
    public int weight() {
        return weight;
    }

    @Override
    public boolean isReady() {
        if (closed.get()) {
            return false;
        }
        for (ConnectionSlot slot : pool.slots()) {
            Connection c = slot.current();
            if (c != null && c.isActive() && !c.isReadonly()) {
                return true;
            }
        }
        return false;
    }

    @Override
    public CompletableFuture<Void> whenReady() {
        ConnectionSlot[] slots = pool.slots();
        CompletableFuture<?>[] attempts = new CompletableFuture<?>[slots.length];
        for (int i = 0; i < slots.length; i++) {
            attempts[i] = slots[i].connection();
        }
        return CompletableFuture.anyOf(attempts).thenApply(c -> null);
    }

    @Override
    public int openConnections() {
        int n = 0;
        for (ConnectionSlot slot : pool.slots()) {
            Connection c = slot.current();
            if (c != null && c.isActive()) {
                n++;
            }
        }
        return n;
    }

    @Override
    public Set<Thread> ioThreads() throws InterruptedException {
        Set<Thread> threads = ConcurrentHashMap.newKeySet();
        for (ConnectionSlot slot : pool.slots()) {
            Connection c = slot.current();
            if (c != null) {
                try {
                    c.channel().eventLoop().submit(() -> threads.add(Thread.currentThread())).get();
                } catch (ExecutionException e) {
                    throw new IllegalStateException(e);
                }
            }
        }
        return threads;
    }

    @Override
    public void reconnectSoon(Duration spread) {
        for (ConnectionSlot slot : pool.slots()) {
            slot.reconnectSoon(spread.toNanos());
        }
    }

    @Override
    public int pendingCalls() {
        int n = 0;
        for (ConnectionSlot slot : pool.slots()) {
            Connection c = slot.current();
            if (c != null) {
                n += c.pendingCalls();
            }
        }
        return n;
    }

    /**
     * Sends a call. The future completes on the invocation's executor, with the answer or an {@link RpcException}
     * (or the service's own exception), by the invocation's deadline.
     */
    @Override
    public CompletableFuture<Result> invoke(Invocation invocation) {
        if (closed.get()) {
            return CompletableFuture.failedFuture(RpcException.notExecuted(RpcStatus.ILLEGAL_STATE,
                    "client of " + addressText + " is closed", null));
        }
        MethodSchema method = invocation.method().getDeclaringClass() == EchoService.class
                ? ServiceSchema.echoMethod() : schema.method(invocation.method());
        if (method == null) {
            return CompletableFuture.failedFuture(RpcException.notExecuted(RpcStatus.ILLEGAL_STATE,
                    invocation.method() + " is not a method of " + schema.name(), null));
        }
        Deadline deadline = invocation.deadline();
        if (deadline.isExpired()) {
            return CompletableFuture.failedFuture(notSentInTime(invocation));
        }
        Connection writable = pool.writableConnection();
        if (writable != null) {
            return encodeAndSend(writable, invocation, method);
        }
        if (pool.hasReadyConnection()) {
            return sendWhenWritable(invocation, method);
        }
        ConnectionSlot slot = pool.slotToConnect();
        String unreachable = options.waitForReady() ? null : slot.knownUnreachable();
        CompletableFuture<Connection> connection = slot.connection(); // also pulls the next attempt forward
        if (connection.isDone() && !connection.isCompletedExceptionally()) {
            return connection.join().isWritable() ? encodeAndSend(connection.join(), invocation, method)
                    : sendWhenWritable(invocation, method);
        }
        if (unreachable != null) {
            // known down and backing off: say so now rather than spend the caller's whole timeout waiting
            return CompletableFuture.failedFuture(RpcException.notExecuted(RpcStatus.NETWORK, "cannot connect to "
                    + addressText + " for " + invocation.description() + ": " + unreachable + "; not sent", null));
        }
        return sendWhenConnected(slot, connection, invocation, method);
    }

    private CompletableFuture<Result> encodeAndSend(Connection connection, Invocation invocation,
                                                    MethodSchema method) {
        ByteBuf frame;
        try {
            frame = encode(invocation, method);
        } catch (FrameEncoder.PayloadTooLargeException e) {
            return CompletableFuture.failedFuture(RpcException.notExecuted(RpcStatus.PAYLOAD_TOO_LARGE,
                    invocation.description() + " to " + addressText + " not sent: " + e.getMessage(), null));
        } catch (IOException | RuntimeException e) {
            return CompletableFuture.failedFuture(RpcException.notExecuted(RpcStatus.SERIALIZATION,
                    invocation.description() + " to " + addressText + " not sent: cannot serialize: "
                            + e.getMessage(), e));
        }
        return connection.send(frame, invocation, method, schema.serializerFactory());
    }

    /**
     * Every ready connection is unwritable (the provider is not reading as fast as calls are written): wait for one
     * to drain, at most {@code congestionWait} and never past the deadline, then send on the call's executor, or
     * fail CONGESTED, not sent, so the cluster may move the call to another provider.
     */
    private CompletableFuture<Result> sendWhenWritable(Invocation invocation, MethodSchema method) {
        long waitNanos = Math.min(options.congestionWait().toNanos(), invocation.deadline().remainingNanos());
        if (waitNanos <= 0) {
            return CompletableFuture.failedFuture(notSentInTime(invocation));
        }
        CompletableFuture<Result> result = new CompletableFuture<>();
        Executor executor = invocation.executor();
        AtomicBoolean handedOff = new AtomicBoolean();
        Timeout timer = resources.timer().newTimeout(t -> {
            if (handedOff.compareAndSet(false, true)) {
                completeOn(executor, result, congested(invocation, waitNanos));
            }
        }, waitNanos, TimeUnit.NANOSECONDS);
        awaitWritable(invocation, method, result, handedOff, timer);
        return result;
    }

    private void awaitWritable(Invocation invocation, MethodSchema method, CompletableFuture<Result> result,
                               AtomicBoolean handedOff, Timeout timer) {
        CompletableFuture<Void> signal = pool.writableSignal(); // taken before looking, so no wake-up is missed
        Connection writable = closed.get() ? null : pool.writableConnection();
        if (writable != null || closed.get()) {
            if (handedOff.compareAndSet(false, true)) {
                timer.cancel();
                CompletableFuture<Result> sent = writable != null ? encodeAndSend(writable, invocation, method)
                        : CompletableFuture.failedFuture(RpcException.notExecuted(RpcStatus.ILLEGAL_STATE,
                        "client of " + addressText + " is closed", null));
                sent.whenComplete((r, e) -> {
                    if (e != null) {
                        result.completeExceptionally(e);
                    } else {
                        result.complete(r);
                    }
                });
            }
            return;
        }
        signal.thenRun(() -> {
            if (handedOff.get()) {
                return;
            }
            try {
                invocation.executor().execute(() -> awaitWritable(invocation, method, result, handedOff, timer));
            } catch (RejectedExecutionException e) {
                if (handedOff.compareAndSet(false, true)) {
                    timer.cancel();
                    result.completeExceptionally(RpcException.notExecuted(RpcStatus.ILLEGAL_STATE,
                            invocation.description() + " not sent: the client is shutting down", e));
                }
            }
        });
    }

    private RpcException congested(Invocation invocation, long waitedNanos) {
        StringBuilder queued = new StringBuilder();
        for (ConnectionSlot slot : pool.slots()) {
            Connection c = slot.current();
            if (c != null) {
                queued.append(queued.length() == 0 ? "" : ", ").append(c.queuedBytes());
            }
        }
        return RpcException.notExecuted(RpcStatus.CONGESTED, invocation.description() + " not sent to "
                + addressText + ": no connection became writable within " + TimeUnit.NANOSECONDS.toMillis(waitedNanos)
                + " ms (the provider is not reading; bytes queued per connection: [" + queued
                + "], high water mark " + options.socket().writeBufferHighWaterMark() + ")", null);
    }

    /**
     * The connection is not there yet: send once it is, encoding on the call's executor. With
     * {@code waitForReady} a failed attempt does not end the call while its deadline lasts: it waits for the
     * slot's next attempt (the provider may be back a moment later); without, it fails at once, not executed, so
     * the cluster can move the call to another provider.
     */
    private CompletableFuture<Result> sendWhenConnected(ConnectionSlot slot, CompletableFuture<Connection> connection,
                                                        Invocation invocation, MethodSchema method) {
        CompletableFuture<Result> result = new CompletableFuture<>();
        Executor executor = invocation.executor();
        AtomicBoolean handedOff = new AtomicBoolean();
        AtomicReference<Throwable> lastFailure = new AtomicReference<>();
        Timeout deadline = resources.timer().newTimeout(t -> {
            if (handedOff.compareAndSet(false, true)) {
                completeOn(executor, result, noConnectionWithin(invocation, lastFailure.get()));
            }
        }, invocation.deadline().remainingNanos(), TimeUnit.NANOSECONDS);
        whenConnected(slot, connection, invocation, lastFailure, (c, error) -> {
            if (!handedOff.compareAndSet(false, true)) {
                return;
            }
            deadline.cancel();
            if (error != null) {
                completeOn(executor, result, error instanceof RpcException r ? r
                        : RpcException.notExecuted(RpcStatus.NETWORK, "cannot connect to " + addressText + ": "
                        + error, error));
                return;
            }
            Runnable send = () -> {
                if (invocation.deadline().isExpired()) {
                    result.completeExceptionally(noConnectionWithin(invocation, null));
                    return;
                }
                encodeAndSend(c, invocation, method).whenComplete((r, e) -> {
                    if (e != null) {
                        result.completeExceptionally(e);
                    } else {
                        result.complete(r);
                    }
                });
            };
            try {
                executor.execute(send);
            } catch (RejectedExecutionException e) {
                result.completeExceptionally(RpcException.notExecuted(RpcStatus.ILLEGAL_STATE,
                        invocation.description() + " not sent: the client is shutting down", e));
            }
        });
        return result;
    }

    /** Calls back with a connection, or with the last error once the deadline leaves no time for another attempt. */
    private void whenConnected(ConnectionSlot slot, CompletableFuture<Connection> connection, Invocation invocation,
                               AtomicReference<Throwable> lastFailure, BiConsumer<Connection, Throwable> then) {
        connection.whenComplete((c, error) -> {
            if (error != null) {
                lastFailure.set(error);
            }
            boolean expired = invocation.deadline().isExpired();
            boolean retry = error != null && !expired && !slot.isClosed() && !closed.get()
                    && options.waitForReady() && error instanceof RpcException rpc && rpc.isNotExecuted()
                    && rpc.status() == RpcStatus.NETWORK;
            if (retry) {
                whenConnected(slot, slot.connection(), invocation, lastFailure, then);
            } else if (error != null && options.waitForReady() && expired) {
                // the deadline passed while the last attempt failed: the same answer the deadline timer gives
                then.accept(null, noConnectionWithin(invocation, error));
            } else {
                then.accept(c, error);
            }
        });
    }

    private RpcException noConnectionWithin(Invocation invocation, Throwable last) {
        Deadline deadline = invocation.deadline();
        return RpcException.notExecuted(RpcStatus.TIMEOUT, "no connection to " + addressText + " for "
                + invocation.description() + " within its timeout of " + deadline.timeoutMillis() + " ms (waited "
                + deadline.elapsedMillis() + " ms for connect and readiness; not sent)"
                + (last != null ? "; last attempt: " + last.getMessage() : ""), last);
    }

    private RpcException notSentInTime(Invocation invocation) {
        Deadline deadline = invocation.deadline();
        return RpcException.notExecuted(RpcStatus.TIMEOUT, invocation.description() + " not sent to "
                + addressText + ": its timeout of " + deadline.timeoutMillis() + " ms had passed ("
                + deadline.elapsedMillis() + " ms since the call started)", null);
    }

    private static void completeOn(Executor executor, CompletableFuture<Result> result, Throwable error) {
        Runnable complete = () -> result.completeExceptionally(error);
        try {
            executor.execute(complete);
        } catch (RejectedExecutionException e) {
            complete.run();
        }
    }

    private ByteBuf encode(Invocation invocation, MethodSchema method) throws IOException {
        int flag = Frame.FLAG_REQUEST | (invocation.oneway() ? 0 : Frame.FLAG_TWO_WAY) | Frame.HESSIAN2;
        return FrameEncoder.encode(PooledByteBufAllocator.DEFAULT, flag, (byte) 0, 0L, schema.serializerFactory(),
                options.payloadBytes(), out -> RequestCodec.write(out, invocation, method));
    }

    /** Closes this endpoint's own connections, or gives up its share of the shared one. Idempotent. */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        if (usesShared) {
            resources.releaseShared(address, options);
        } else {
            resources.release(pool);
        }
    }

    @Override
    public String toString() {
        return "endpoint " + addressText + " (" + schema.name() + ")";
    }
}
