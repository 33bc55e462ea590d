package io.ferry.rpc.remoting.internal.server;

import io.ferry.rpc.Deadline;
import io.ferry.rpc.Invocation;
import io.ferry.rpc.Result;
import io.ferry.rpc.Ticker;
import io.ferry.rpc.RpcContext;
import io.ferry.rpc.RpcException;
import io.ferry.rpc.RpcStatus;
import io.ferry.rpc.remoting.internal.service.MethodSchema;
import io.ferry.rpc.remoting.internal.service.ProviderService;
import io.ferry.rpc.remoting.internal.service.ServiceSchema;
import io.ferry.rpc.remoting.internal.service.ServiceTable;
import io.ferry.rpc.remoting.internal.codec.Frame;
import io.ferry.rpc.remoting.internal.codec.FrameEncoder;
import io.ferry.rpc.remoting.internal.codec.InboundFrame;
import io.ferry.rpc.remoting.internal.codec.RequestCodec;
import io.ferry.rpc.remoting.internal.codec.ResponseCodec;
import io.ferry.rpc.remoting.internal.serialize.AllowedClasses;
import io.ferry.rpc.remoting.internal.serialize.GuardedHessian2Input;
import io.ferry.rpc.remoting.internal.serialize.SafeSerializerFactory;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.util.ReferenceCountUtil;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;

/**
 * One request on a business thread: read the head, resolve service and method (answering at once, without
 * decoding any argument, when either is unknown), decode the arguments and attachments against that service's
 * allow-list, run the invoker, and write the answer. Every path of a two-way request writes exactly one answer;
 * an {@code Error} while decoding closes this one connection.
 */
final class RequestTask implements Runnable {
    private static final Logger log = LoggerFactory.getLogger(RequestTask.class);
    private static final LogLimiter REFUSED = new LogLimiter(10);
    private static final LogLimiter UNDECLARED = new LogLimiter(10);

    private final Channel channel;
    private final InboundFrame frame;
    private final ServiceTable services;
    private final int payloadLimit;
    private final Runnable done;
    private final Ticker ticker;
    private final long receivedNanos;
    private final Runnable released;

    /**
     * Made on the IO thread as the request arrives: its deadline counts from then, not from when a business thread
     * takes it. {@code done} runs exactly once, when the request has been answered (or dropped); {@code released}
     * gives back the request's place in the business pool as soon as it needs no thread: just before its answer
     * is written, or when this task ends (an asynchronous service answers later). It may run more than once.
     */
    RequestTask(Channel channel, InboundFrame frame, ServiceTable services, int payloadLimit, Runnable done,
                Ticker ticker, Runnable released) {
        this.released = released;
        this.ticker = ticker;
        this.receivedNanos = ticker.nanoTime();
        this.channel = channel;
        this.frame = frame;
        this.services = services;
        this.payloadLimit = payloadLimit;
        this.done = done;
    }

    @Override
    public void run() {
        try {
            decodeAndInvoke();
        } finally {
            released.run();
        }
    }

    /** The request will not run (its pool is shutting down): answered {@code status}, unrun, and counted out. */
    void refuseUnrun(RpcStatus status, String message) {
        try {
            answerError(status, message);
        } finally {
            frame.release();
            released.run();
        }
    }

    private void decodeAndInvoke() {
        int size = frame.body().readableBytes();
        Decoded decoded;
        try {
            decoded = decode();
        } catch (Rejection r) {
            answerError(r.status, r.getMessage());
            return;
        } catch (IOException | RuntimeException e) {
            long left = REFUSED.tryLog();
            if (left >= 0) {
                // the message names a refused class and sizes, never the decoded values
                log.warn("{}: refused a {}-byte request: {}{}", channel.remoteAddress(), size, e.getMessage(),
                        left > 0 ? " (" + left + " more refusals not logged)" : "");
            }
            answerError(RpcStatus.BAD_REQUEST, "Fail to decode request due to: " + e.getMessage());
            return;
        } catch (Error e) {
            done.run();
            // the decoder is in an unknown state: drop this one connection, keep serving everyone else
            log.error("{}: {} while decoding a {}-byte request; closing this connection", channel.remoteAddress(),
                    e.getClass().getName(), size);
            channel.close();
            return;
        } finally {
            frame.release();
        }
        invoke(decoded);
    }

    private record Decoded(ProviderService service, MethodSchema method, boolean echo, Object[] arguments,
                           Map<String, Object> attachments, boolean withResponseAttachments, Deadline deadline,
                           String version) {
    }

    private Decoded decode() throws IOException {
        GuardedHessian2Input in = new GuardedHessian2Input(frame.body(), SafeSerializerFactory.jdkOnly());
        RequestCodec.Head head = RequestCodec.readHead(in);
        ServiceSchema schema = services.schema(head.path(), head.version());
        if (schema == null) {
            throw new Rejection(RpcStatus.SERVICE_NOT_FOUND, RpcStatus.SERVICE_NOT_FOUND_PREFIX + head.path()
                    + ":" + head.version() + " on " + channel.localAddress()
                    + (services.schema(head.path()) != null ? ", may be version mismatch" : ""));
        }
        in.setSerializerFactory(schema.serializerFactory());
        boolean echo = ServiceSchema.ECHO_METHOD.equals(head.method())
                && ServiceSchema.ECHO_DESCRIPTOR.equals(head.descriptor());
        MethodSchema method = echo ? null : schema.method(head.method(), head.descriptor());
        if (method == null && !echo) {
            throw new Rejection(RpcStatus.METHOD_NOT_FOUND, RpcStatus.METHOD_NOT_FOUND_PREFIX + head.path() + "."
                    + head.method() + "(" + head.descriptor() + ")" + (schema.hasMethodNamed(head.method())
                    ? ": no overload with these parameter types" : ""));
        }
        Object[] arguments = echo ? new Object[] {in.readObject()} : RequestCodec.readArguments(in, method);
        Map<String, Object> attachments = RequestCodec.readAttachments(in);
        // as in Dubbo, attachment entries win over the head's strings
        String version = attachments.get("version") instanceof String v ? v : head.version();
        String group = attachments.get("group") instanceof String g ? g : "";
        ProviderService service = services.find(head.path(), version, group);
        if (service == null) {
            throw new Rejection(RpcStatus.SERVICE_NOT_FOUND, RpcStatus.SERVICE_NOT_FOUND_PREFIX
                    + (group.isEmpty() ? "" : group + "/") + head.path() + ":" + version + " on "
                    + channel.localAddress() + ", may be version or group mismatch");
        }
        return new Decoded(service, method, echo, arguments, attachments,
                Frame.supportsResponseAttachments(head.protocolVersion()), deadline(attachments),
                "0.0.0".equals(version) ? "" : version);
    }

    /** The consumer's remaining time ({@code _TO}, Integer ms) counted from receipt; none when it sent none. */
    private Deadline deadline(Map<String, Object> attachments) {
        Object left = attachments.get(RequestCodec.TIME_LEFT);
        if (left instanceof Number n) {
            long millis = n.longValue();
            return Deadline.startingAt(receivedNanos, TimeUnit.MILLISECONDS.toNanos(Math.max(millis, 0)), ticker);
        }
        return Deadline.none();
    }

    private void invoke(Decoded call) {
        if (call.echo()) {
            answer(call, call.arguments()[0], null, Collections.emptyMap());
            return;
        }
        if (call.deadline().isExpired()) {
            // the caller has given up (or is about to): running it now would only take a thread from a live call
            answerError(RpcStatus.TIMEOUT, RpcStatus.EXPIRED_PREFIX + describe(call) + " waited "
                    + TimeUnit.NANOSECONDS.toMillis(ticker.nanoTime() - receivedNanos) + " ms on the provider, past the "
                    + call.deadline().timeoutMillis() + " ms its caller had left");
            return;
        }
        long started = System.nanoTime();
        RpcContext context = RpcContext.current();
        context.enterProviderCall(call.attachments(), call.deadline());
        CompletableFuture<Result> result;
        Map<String, Object> contextAttachments;
        try {
            result = call.service().invoker().invoke(new Invocation(call.service().schema().name(),
                    call.version(), call.service().group(), call.method().method(),
                    call.arguments(), call.attachments(), call.deadline(), !frame.isTwoWay(), null));
            if (result == null) {
                result = CompletableFuture.failedFuture(new IllegalStateException("the invoker returned no future"));
            }
        } catch (Throwable t) {
            result = CompletableFuture.failedFuture(t);
        } finally {
            contextAttachments = context.exitProviderCall();
        }
        result.whenComplete((value, error) -> {
            try {
                reportIfSlow(call, System.nanoTime() - started);
                if (error == null) {
                    answer(call, value.value(), null, merged(contextAttachments, value.attachments()));
                } else if (unwrap(error) instanceof RpcException refused
                        && refused.status() == RpcStatus.LIMIT_EXCEEDED) {
                    // a provider filter refused the call unrun: a status the consumer can act on, not a value
                    answerError(RpcStatus.LIMIT_EXCEEDED, refused.getMessage());
                } else {
                    Throwable thrown = unwrap(error);
                    reportIfUndeclared(call, thrown);
                    answer(call, null, deliverable(call, thrown), contextAttachments);
                }
            } catch (Throwable t) {
                // never leave a caller waiting for its timeout because answering failed
                log.error("{}: cannot answer {}: {}", channel.remoteAddress(), describe(call), t.getClass().getName());
                answerError(RpcStatus.BAD_RESPONSE, "Failed to send response of " + describe(call) + ": "
                        + t.getClass().getName());
            }
        });
    }

    private static Map<String, Object> merged(Map<String, Object> fromContext, Map<String, Object> fromResult) {
        if (fromResult.isEmpty()) {
            return fromContext;
        }
        if (fromContext.isEmpty()) {
            return fromResult;
        }
        Map<String, Object> all = new HashMap<>(fromContext);
        all.putAll(fromResult);
        return all;
    }

    /**
     * Dubbo operators expect a line for a service failing with something its signature does not declare (a
     * runtime exception or an Error): logged with the class names only, at most 10 lines a second.
     */
    private void reportIfUndeclared(Decoded call, Throwable thrown) {
        if (thrown instanceof RpcException || declared(call, thrown)) {
            return;
        }
        long left = UNDECLARED.tryLog();
        if (left < 0) {
            return;
        }
        String more = left > 0 ? " (" + left + " more not logged)" : "";
        if (thrown instanceof Error) {
            log.error("{} failed with {} (request {} from {}){}", describe(call), thrown.getClass().getName(),
                    frame.id(), channel.remoteAddress(), more, thrown);
        } else {
            log.warn("{} threw {}, which its signature does not declare (request {} from {}){}", describe(call),
                    thrown.getClass().getName(), frame.id(), channel.remoteAddress(), more, thrown);
        }
    }

    private static boolean declared(Decoded call, Throwable thrown) {
        if (call.method() == null) {
            return false;
        }
        for (Class<?> type : call.method().method().getExceptionTypes()) {
            if (type.isInstance(thrown)) {
                return true;
            }
        }
        return false;
    }

    private void reportIfSlow(Decoded call, long tookNanos) {
        long timeout = call.service().timeoutNanos(call.method().name());
        if (timeout > 0 && tookNanos > timeout) {
            log.warn("{} took {} ms, over its provider timeout of {} ms (request {} from {})", describe(call),
                    TimeUnit.NANOSECONDS.toMillis(tookNanos), TimeUnit.NANOSECONDS.toMillis(timeout), frame.id(),
                    channel.remoteAddress());
        }
    }

    /** Counts the request out once its answer has left (a shutdown closes channels only after that). */
    private void send(ByteBuf out) {
        released.run();
        try {
            channel.writeAndFlush(out).addListener(f -> done.run());
        } catch (Throwable t) {
            ReferenceCountUtil.safeRelease(out);
            closeUnanswered(t);
        }
    }

    /**
     * Not even an error answer could be built or handed to the channel (direct memory ran out, say): close the
     * connection, so that the caller learns now instead of at its timeout, and count the request out.
     */
    private void closeUnanswered(Throwable cause) {
        released.run();
        try {
            log.error("{}: cannot answer request {} ({}); closing the connection", channel.remoteAddress(),
                    frame.id(), cause.toString());
            channel.close();
        } finally {
            done.run();
        }
    }

    private void answer(Decoded call, Object value, Throwable exception, Map<String, Object> attachments) {
        if (!frame.isTwoWay()) {
            done.run();
            return;
        }
        if (call.deadline().isExpired()) {
            // its caller has stopped waiting: a short answer instead of encoding and sending the whole value
            answerError(RpcStatus.TIMEOUT, "The answer of " + describe(call) + " was not sent: its caller's deadline"
                    + " of " + call.deadline().timeoutMillis() + " ms passed while it ran");
            return;
        }
        SafeSerializerFactory factory = call.service().schema().serializerFactory();
        ByteBuf out;
        try {
            out = FrameEncoder.encode(channel.alloc(), Frame.HESSIAN2, Frame.STATUS_OK, frame.id(), factory,
                    payloadLimit, o -> {
                        if (exception != null) {
                            ResponseCodec.writeException(o, call.withResponseAttachments(), exception, attachments);
                        } else {
                            ResponseCodec.writeValue(o, call.withResponseAttachments(), value, attachments);
                        }
                    });
        } catch (FrameEncoder.PayloadTooLargeException e) {
            log.warn("{}: answer to {} not sent: {}", channel.remoteAddress(), describe(call), e.getMessage());
            answerError(RpcStatus.PAYLOAD_TOO_LARGE, RpcStatus.PAYLOAD_TOO_LARGE_PREFIX + "the answer of "
                    + describe(call) + " was not sent: " + e.getMessage());
            return;
        } catch (IOException | RuntimeException | Error e) {
            log.warn("{}: cannot serialize the answer to {}: {}", channel.remoteAddress(), describe(call),
                    e.toString());
            answerError(RpcStatus.BAD_RESPONSE, "Failed to send response of " + describe(call) + ": " + e);
            return;
        }
        ServerConnection connection = ServerConnection.of(channel);
        if (connection == null) {
            send(out);
            return;
        }
        released.run();
        try {
            connection.answers().send(out, frame.id(), call.deadline(), done);
        } catch (Throwable t) {
            ReferenceCountUtil.safeRelease(out);
            closeUnanswered(t);
        }
    }

    /** Never throws: an answer that cannot be built closes the connection instead. */
    private void answerError(RpcStatus status, String message) {
        if (!frame.isTwoWay()) {
            done.run();
            return;
        }
        ByteBuf out;
        try {
            out = FrameEncoder.errorResponse(channel.alloc(), frame.id(), status, message);
        } catch (Throwable t) {
            closeUnanswered(t);
            return;
        }
        send(out);
    }

    private static String describe(Decoded call) {
        return call.echo() ? "$echo" : call.service().schema().type().getSimpleName() + "." + call.method().name();
    }

    private static Throwable unwrap(Throwable error) {
        Throwable t = error;
        while (t instanceof CompletionException && t.getCause() != null) {
            t = t.getCause();
        }
        return t;
    }

    /**
     * The exception as the consumer can receive it. The consumer allows the same classes as this service (both
     * derive them from the interface), so: an exception whose class, causes and suppressed exceptions are all
     * allowed goes as it is; otherwise it goes as a RuntimeException carrying the class name, message and stack,
     * with its causes treated the same way, since the consumer would refuse the whole answer for one class its
     * signatures never mention.
     */
    static Throwable deliverable(Decoded call, Throwable t) {
        AllowedClasses allowed = call.service().schema().serializerFactory().allowed();
        return allowedThroughout(allowed, t, 0) ? t : replaced(allowed, t, 0);
    }

    private static final int MAX_CAUSES = 16;

    private static boolean allowedThroughout(AllowedClasses allowed, Throwable t, int depth) {
        if (t == null) {
            return true;
        }
        if (depth > MAX_CAUSES || !allowed.allows(t.getClass().getName())) {
            return false;
        }
        for (Throwable s : t.getSuppressed()) {
            if (!allowedThroughout(allowed, s, depth + 1)) {
                return false;
            }
        }
        return t.getCause() == t || allowedThroughout(allowed, t.getCause(), depth + 1);
    }

    private static Throwable replaced(AllowedClasses allowed, Throwable t, int depth) {
        RuntimeException copy = new RuntimeException(t.getClass().getName() + ": " + t.getMessage());
        copy.setStackTrace(t.getStackTrace());
        Throwable cause = t.getCause();
        if (cause != null && cause != t && depth < MAX_CAUSES) {
            copy.initCause(allowedThroughout(allowed, cause, depth + 1) ? cause : replaced(allowed, cause, depth + 1));
        }
        return copy;
    }

    /** A request that names something this provider does not have. */
    private static final class Rejection extends IOException {
        private static final long serialVersionUID = 1L;
        final RpcStatus status;

        Rejection(RpcStatus status, String message) {
            super(message);
            this.status = status;
        }
    }
}
