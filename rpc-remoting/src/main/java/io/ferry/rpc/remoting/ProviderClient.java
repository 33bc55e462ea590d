package io.ferry.rpc.remoting;

import io.ferry.rpc.RpcException;
import io.ferry.rpc.RpcStatus;
import io.ferry.rpc.remoting.internal.codec.Frame;
import io.ferry.rpc.remoting.internal.codec.FrameEncoder;
import io.ferry.rpc.remoting.internal.codec.RequestCodec;
import io.ferry.rpc.remoting.internal.exchange.Connection;
import io.ferry.rpc.remoting.internal.exchange.Reply;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BiConsumer;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.Set;
import java.time.Duration;
import io.netty.util.Timeout;
import io.netty.channel.EventLoop;

/**
 * A consumer's handle on one provider address. By default it uses the process's shared connection to that address;
 * with {@code connections = N} it owns N connections on N distinct IO threads and spreads calls over them round
 * robin. Connects at once, or on the first call when {@code lazy}; reconnects on the next call after a connection
 * is lost. Thread-safe.
 */
public final class ProviderClient implements AutoCloseable {
    private final ClientTransport transport;
    private final InetSocketAddress address;
    private final ClientOptions options;
    private final ConnectionSlot[] slots;
    private final boolean usesShared;
    private final AtomicInteger next = new AtomicInteger();
    private final AtomicBoolean closed = new AtomicBoolean();

    private final boolean holdCalls;

    private ProviderClient(InetSocketAddress address, ClientOptions options, long spreadNanos, boolean holdCalls) {
        this.holdCalls = holdCalls;
        this.transport = ClientTransport.acquire();
        this.address = address;
        this.options = options;
        this.usesShared = options.connections() == 0;
        if (usesShared) {
            slots = new ConnectionSlot[] {transport.acquireShared(address, options)};
        } else {
            EventLoop[] loops = transport.nextLoops(options.connections());
            slots = new ConnectionSlot[options.connections()];
            for (int i = 0; i < slots.length; i++) {
                slots[i] = new ConnectionSlot(transport, address, options, loops[i]);
            }
        }
        if (!options.lazy()) {
            for (ConnectionSlot slot : slots) {
                slot.connectSoon(spreadNanos);
            }
        }
    }

    /**
     * Opens a client for a provider that is the only one its calls can go to: a call waiting for a connection
     * waits through failed attempts for the next one, within its deadline.
     */
    public static ProviderClient open(InetSocketAddress address, ClientOptions options) {
        return new ProviderClient(address, options, 0, true);
    }

    /**
     * Opens a client for one provider among several: its first connects start after a random delay in [0, spread),
     * so that thousands of consumers told of the same provider at the same moment do not all knock on its accept
     * queue in the same millisecond (the first call that needs a connection starts it at once); and a failed
     * connect fails the calls waiting for it at once, so the caller can move them to another provider.
     */
    public static ProviderClient open(InetSocketAddress address, ClientOptions options, Duration spread) {
        return new ProviderClient(address, options, spread.toNanos(), false);
    }

    public InetSocketAddress address() {
        return address;
    }

    public ClientTransport transport() {
        return transport;
    }

    /**
     * Whether a call sent now would go out at once: some connection is open and its provider has not announced
     * that it is shutting down (readonly).
     */
    public boolean isReady() {
        if (closed.get()) {
            return false;
        }
        for (ConnectionSlot slot : slots) {
            Connection c = slot.current();
            if (c != null && c.isActive() && !c.isReadonly()) {
                return true;
            }
        }
        return false;
    }

    /**
     * Completes when some connection of this client is ready (connected and pinged); fails when the attempt under
     * way fails. Starts connecting if nothing is under way.
     */
    public CompletableFuture<Void> whenReady() {
        CompletableFuture<?>[] attempts = new CompletableFuture<?>[slots.length];
        for (int i = 0; i < slots.length; i++) {
            attempts[i] = slots[i].connection();
        }
        return CompletableFuture.anyOf(attempts).thenApply(c -> null);
    }

    /** Connections currently open (for tests and diagnostics). */
    public int openConnections() {
        int n = 0;
        for (ConnectionSlot slot : slots) {
            Connection c = slot.current();
            if (c != null && c.isActive()) {
                n++;
            }
        }
        return n;
    }

    /** The IO threads this client's open connections are bound to. For tests; never call on an IO thread. */
    Set<Thread> ioThreadsInUse() throws InterruptedException {
        Set<Thread> threads = ConcurrentHashMap.newKeySet();
        for (ConnectionSlot slot : slots) {
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

    /**
     * Sends a call. Encoding happens here, on the caller's thread: a request over the payload limit fails at once
     * and nothing is sent. The future completes on {@code executor}, with the answer or an {@link RpcException}
     * (or the service's own exception), within the call's timeout.
     */
    public CompletableFuture<Reply> invoke(OutboundCall call, Executor executor) {
        if (closed.get()) {
            return CompletableFuture.failedFuture(RpcException.notExecuted(RpcStatus.ILLEGAL_STATE,
                    "client of " + address + " is closed", null));
        }
        long start = System.nanoTime();
        ByteBuf frame;
        try {
            frame = encode(call);
        } catch (FrameEncoder.PayloadTooLargeException e) {
            return CompletableFuture.failedFuture(new RpcException(RpcStatus.PAYLOAD_TOO_LARGE,
                    call.description() + " to " + address + " not sent: " + e.getMessage()));
        } catch (IOException e) {
            return CompletableFuture.failedFuture(new RpcException(RpcStatus.SERIALIZATION,
                    call.description() + " to " + address + " not sent: cannot serialize: " + e.getMessage(), e));
        }
        ConnectionSlot slot = slots.length == 1 ? slots[0] : slots[Math.floorMod(next.getAndIncrement(), slots.length)];
        CompletableFuture<Connection> connection = slot.connection();
        if (connection.isDone() && !connection.isCompletedExceptionally()) {
            return send(connection.join(), frame, call, executor, call.timeoutNanos());
        }
        return sendWhenConnected(slot, connection, frame, call, executor, start);
    }

    /** The registry announced this provider again: reconnect soon rather than wait out the back-off. */
    public void reconnectSoon(Duration spread) {
        for (ConnectionSlot slot : slots) {
            slot.reconnectSoon(spread.toNanos());
        }
    }

    /** Calls waiting for an answer on this client's connections now. */
    public int pendingCalls() {
        int n = 0;
        for (ConnectionSlot slot : slots) {
            Connection c = slot.current();
            if (c != null) {
                n += c.pendingCalls();
            }
        }
        return n;
    }

    private CompletableFuture<Reply> send(Connection connection, ByteBuf frame, OutboundCall call, Executor executor,
                                          long timeoutNanos) {
        return connection.send(frame, call.oneway(), call.description(), call.method(),
                call.service().serializerFactory(), executor, timeoutNanos);
    }

    /**
     * The connection is not there yet: send once it is. A failed attempt does not end the call while its deadline
     * lasts: it waits for the slot's next attempt (the provider may be back a moment later).
     */
    private CompletableFuture<Reply> sendWhenConnected(ConnectionSlot slot, CompletableFuture<Connection> connection,
                                                       ByteBuf frame, OutboundCall call, Executor executor,
                                                       long start) {
        CompletableFuture<Reply> result = new CompletableFuture<>();
        AtomicBoolean handedOff = new AtomicBoolean();
        AtomicReference<Throwable> lastFailure = new AtomicReference<>();
        Timeout deadline = transport.timer().newTimeout(t -> {
            if (handedOff.compareAndSet(false, true)) {
                frame.release();
                completeOn(executor, result, null, noConnectionWithin(call, lastFailure.get()));
            }
        }, call.timeoutNanos(), TimeUnit.NANOSECONDS);
        whenConnected(slot, connection, call, start, lastFailure, (c, error) -> {
            if (!handedOff.compareAndSet(false, true)) {
                return;
            }
            deadline.cancel();
            if (error != null) {
                frame.release();
                completeOn(executor, result, null, error instanceof RpcException r ? r
                        : RpcException.notExecuted(RpcStatus.NETWORK, "cannot connect to " + address + ": " + error,
                        error));
                return;
            }
            long remaining = call.timeoutNanos() - (System.nanoTime() - start);
            send(c, frame, call, executor, Math.max(remaining, 1)).whenComplete((reply, e) -> {
                if (e != null) {
                    result.completeExceptionally(e);
                } else {
                    result.complete(reply);
                }
            });
        });
        return result;
    }

    /** Calls back with a connection, or with the last error once the deadline leaves no time for another attempt. */
    private void whenConnected(ConnectionSlot slot, CompletableFuture<Connection> connection, OutboundCall call,
                               long start, AtomicReference<Throwable> lastFailure,
                               BiConsumer<Connection, Throwable> then) {
        connection.whenComplete((c, error) -> {
            if (error != null) {
                lastFailure.set(error);
            }
            long remaining = call.timeoutNanos() - (System.nanoTime() - start);
            boolean retry = error != null && remaining > 0 && !slot.isClosed() && !closed.get()
                    && error instanceof RpcException rpc && rpc.isNotExecuted()
                    && rpc.status() == RpcStatus.NETWORK && holdCalls;
            if (retry) {
                whenConnected(slot, slot.connection(), call, start, lastFailure, then);
            } else if (error != null && holdCalls && remaining <= 0) {
                // the deadline passed while the last attempt failed: the same answer the deadline timer gives
                then.accept(null, noConnectionWithin(call, error));
            } else {
                then.accept(c, error);
            }
        });
    }

    private RpcException noConnectionWithin(OutboundCall call, Throwable last) {
        return RpcException.notExecuted(RpcStatus.TIMEOUT, "no connection to " + address + " for "
                + call.description() + " within " + TimeUnit.NANOSECONDS.toMillis(call.timeoutNanos()) + " ms"
                + (last != null ? "; last attempt: " + last.getMessage() : ""), last);
    }

    private static void completeOn(Executor executor, CompletableFuture<Reply> result, Reply reply, Throwable error) {
        Runnable complete = () -> {
            if (error != null) {
                result.completeExceptionally(error);
            } else {
                result.complete(reply);
            }
        };
        try {
            executor.execute(complete);
        } catch (RejectedExecutionException e) {
            complete.run();
        }
    }

    private ByteBuf encode(OutboundCall call) throws IOException {
        int flag = Frame.FLAG_REQUEST | (call.oneway() ? 0 : Frame.FLAG_TWO_WAY) | Frame.HESSIAN2;
        return FrameEncoder.encode(PooledByteBufAllocator.DEFAULT, flag, (byte) 0, 0L,
                call.service().serializerFactory(), options.payloadBytes(),
                out -> RequestCodec.write(out, call.service().name(), call.version(), call.method(), call.arguments(),
                        call.attachments()));
    }

    /** Closes this client's own connections, or gives up its share of the shared one. Idempotent. */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        if (usesShared) {
            transport.releaseShared(address);
        } else {
            for (ConnectionSlot slot : slots) {
                slot.close();
            }
        }
        transport.release();
    }
}
