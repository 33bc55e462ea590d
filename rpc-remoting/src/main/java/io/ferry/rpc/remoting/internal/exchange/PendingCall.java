package io.ferry.rpc.remoting.internal.exchange;

import io.ferry.rpc.RpcException;
import io.ferry.rpc.RpcStatus;
import io.ferry.rpc.remoting.MethodSchema;
import io.ferry.rpc.remoting.internal.codec.ErrorBodies;
import io.ferry.rpc.remoting.internal.codec.Frame;
import io.ferry.rpc.remoting.internal.codec.InboundFrame;
import io.ferry.rpc.remoting.internal.codec.ResponseCodec;
import io.ferry.rpc.remoting.internal.serialize.GuardedHessian2Input;
import io.ferry.rpc.remoting.internal.serialize.SafeSerializerFactory;
import io.netty.util.Timeout;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;

/**
 * A call waiting for its answer in one connection's table. It is completed exactly once, by whichever path removes
 * it from the table first (response, timeout, write failure, close); that path then hands the completion to the
 * call's executor, never running decoding or user code on the IO thread.
 */
final class PendingCall {
    private final String description;
    private final MethodSchema method;
    private final SafeSerializerFactory serializerFactory;
    private final Executor executor;
    private final CompletableFuture<Reply> result;
    private final long timeoutNanos;
    private volatile Timeout timeout;
    private volatile boolean ended;

    PendingCall(String description, MethodSchema method, SafeSerializerFactory serializerFactory, Executor executor,
                CompletableFuture<Reply> result, long timeoutNanos) {
        this.description = description;
        this.method = method;
        this.serializerFactory = serializerFactory;
        this.executor = executor;
        this.result = result;
        this.timeoutNanos = timeoutNanos;
    }

    String description() {
        return description;
    }

    long timeoutNanos() {
        return timeoutNanos;
    }

    /** Sets the timeout task; if the call ended meanwhile, the task is cancelled at once. */
    void timeout(Timeout timeout) {
        this.timeout = timeout;
        if (ended) {
            timeout.cancel();
        }
    }

    private void cancelTimeout() {
        ended = true;
        Timeout t = timeout;
        if (t != null) {
            t.cancel();
        }
    }

    /** The answer arrived (IO thread): decode and complete on the call's executor. Takes ownership of the frame. */
    void answer(InboundFrame frame, String peer) {
        cancelTimeout();
        run(() -> {
            try {
                complete(frame, peer);
            } catch (Throwable t) {
                // whatever happened while reading, the caller gets an answer
                result.completeExceptionally(new RpcException(RpcStatus.CLIENT_ERROR,
                        "cannot read the answer of " + description + " from " + peer + ": " + t, t));
            } finally {
                frame.release();
            }
        }, frame::release);
    }

    void fail(RpcException error) {
        cancelTimeout();
        run(() -> result.completeExceptionally(error), () -> result.completeExceptionally(error));
    }

    void sent() {
        cancelTimeout();
        run(() -> result.complete(Reply.EMPTY), () -> result.complete(Reply.EMPTY));
    }

    private void run(Runnable task, Runnable ifRejected) {
        try {
            executor.execute(task);
        } catch (RejectedExecutionException e) {
            // the executor is shutting down: complete here rather than leave the caller hanging
            ifRejected.run();
            if (!result.isDone()) {
                result.completeExceptionally(new RpcException(RpcStatus.ILLEGAL_STATE,
                        "callback executor rejected the completion of " + description));
            }
        }
    }

    private void complete(InboundFrame frame, String peer) {
        if (frame.status() != Frame.STATUS_OK) {
            String message = ErrorBodies.readString(frame.serialization(), frame.body());
            RpcStatus status = RpcStatus.fromWire(frame.status(), message);
            result.completeExceptionally(new RpcException(status, peer + " answered status " + frame.status()
                    + " to " + description + ": " + (message != null ? message : "(no readable message)")));
            return;
        }
        if (frame.serialization() != Frame.HESSIAN2) {
            result.completeExceptionally(new RpcException(RpcStatus.SERIALIZATION, peer + " answered "
                    + description + " in serialization " + frame.serialization() + " (expected hessian2, id 2)"));
            return;
        }
        try {
            ResponseCodec.Outcome outcome = ResponseCodec.read(
                    new GuardedHessian2Input(frame.body(), serializerFactory), method.resultType());
            if (outcome.exception() != null) {
                result.completeExceptionally(outcome.exception());
            } else {
                result.complete(new Reply(outcome.value(), outcome.attachments()));
            }
        } catch (Exception | Error e) {
            result.completeExceptionally(new RpcException(RpcStatus.SERIALIZATION,
                    "cannot read the answer of " + description + " from " + peer + ": " + e.getMessage(), e));
        }
    }
}
