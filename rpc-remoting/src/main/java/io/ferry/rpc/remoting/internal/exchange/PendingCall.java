package io.ferry.rpc.remoting.internal.exchange;

import io.ferry.rpc.Deadline;
import io.ferry.rpc.Invocation;
import io.ferry.rpc.Result;
import io.ferry.rpc.RpcException;
import io.ferry.rpc.RpcStatus;
import io.ferry.rpc.remoting.internal.service.MethodSchema;
import io.ferry.rpc.remoting.internal.codec.ErrorBodies;
import io.ferry.rpc.remoting.internal.codec.Frame;
import io.ferry.rpc.remoting.internal.codec.InboundFrame;
import io.ferry.rpc.remoting.internal.codec.ResponseCodec;
import io.ferry.rpc.spi.WireText;
import io.ferry.rpc.remoting.internal.serialize.GuardedHessian2Input;
import io.ferry.rpc.remoting.internal.serialize.SafeSerializerFactory;
import io.netty.util.Timeout;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;

/**
 * A call waiting for its answer in one connection's table. It is completed exactly once, by whichever path removes
 * it from the table first (response, timeout, write failure, close); that path then hands the completion to the
 * call's executor, never running decoding or user code on the IO thread.
 */
final class PendingCall {
    private final Invocation invocation;
    private final MethodSchema method;
    private final SafeSerializerFactory serializerFactory;
    private final CompletableFuture<Result> result;
    private final long sentAtMillis;
    private volatile Timeout timeout;
    private volatile boolean ended;

    PendingCall(Invocation invocation, MethodSchema method, SafeSerializerFactory serializerFactory,
                CompletableFuture<Result> result) {
        this.invocation = invocation;
        this.method = method;
        this.serializerFactory = serializerFactory;
        this.result = result;
        this.sentAtMillis = invocation.deadline().elapsedMillis();
    }

    String description() {
        return method.description();
    }

    Deadline deadline() {
        return invocation.deadline();
    }

    /** How far into its deadline the call was when it was sent (time spent connecting, retrying). */
    long sentAtMillis() {
        return sentAtMillis;
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
                        "cannot read the answer of " + description() + " from " + peer + ": " + WireText.escape(t),
                        t));
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
        run(() -> result.complete(Result.empty()), () -> result.complete(Result.empty()));
    }

    private void run(Runnable task, Runnable ifRejected) {
        try {
            invocation.executor().execute(task);
        } catch (RejectedExecutionException e) {
            // the executor is shutting down: complete here rather than leave the caller hanging
            ifRejected.run();
            if (!result.isDone()) {
                result.completeExceptionally(new RpcException(RpcStatus.ILLEGAL_STATE,
                        "callback executor rejected the completion of " + description()));
            }
        }
    }

    private void complete(InboundFrame frame, String peer) {
        if (frame.status() != Frame.STATUS_OK) {
            String message = ErrorBodies.readString(frame.serialization(), frame.body());
            RpcStatus status = RpcStatus.fromWire(frame.status(), message);
            if (status == RpcStatus.FORBIDDEN) {
                message = TokenRefusals.readable(message);
            }
            // the provider's text, escaped: callers log these exceptions
            String text = peer + " answered status " + frame.status() + " to " + description() + ": "
                    + (message != null ? WireText.escape(message) : "(no readable message)");
            // statuses a provider sends only for requests it never ran (the rest the exception's status decides)
            boolean unrun = status == RpcStatus.BAD_REQUEST || status == RpcStatus.METHOD_NOT_FOUND
                    || (status == RpcStatus.TIMEOUT && message != null
                    && message.startsWith(RpcStatus.EXPIRED_PREFIX));
            result.completeExceptionally(unrun ? RpcException.notExecuted(status, text, null)
                    : new RpcException(status, text));
            return;
        }
        if (frame.serialization() != Frame.HESSIAN2) {
            result.completeExceptionally(new RpcException(RpcStatus.SERIALIZATION, peer + " answered "
                    + description() + " in serialization " + frame.serialization() + " (expected hessian2, id 2)"));
            return;
        }
        try {
            ResponseCodec.Outcome outcome;
            GuardedHessian2Input in = GuardedHessian2Input.open(frame.body(), serializerFactory);
            try {
                outcome = ResponseCodec.read(in, method.resultType(), method.isGeneric());
            } finally {
                in.release();
            }
            if (outcome.exception() != null) {
                result.completeExceptionally(outcome.exception());
            } else {
                result.complete(new Result(outcome.value(), outcome.attachments()));
            }
        } catch (Exception | Error e) {
            result.completeExceptionally(new RpcException(RpcStatus.SERIALIZATION,
                    "cannot read the answer of " + description() + " from " + peer + ": "
                            + WireText.escape(e.getMessage()), e));
        }
    }
}
