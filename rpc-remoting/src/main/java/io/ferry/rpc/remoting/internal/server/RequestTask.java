package io.ferry.rpc.remoting.internal.server;

import io.ferry.rpc.Result;
import io.ferry.rpc.ProviderRefusal;
import io.ferry.rpc.RpcStatus;
import io.ferry.rpc.Ticker;
import io.ferry.rpc.remoting.internal.codec.InboundFrame;
import io.ferry.rpc.remoting.internal.generic.GenericFailure;
import io.ferry.rpc.remoting.internal.generic.PojoMaps;
import io.ferry.rpc.remoting.internal.service.ServiceCounters;
import io.netty.channel.Channel;

import java.io.IOException;
import java.util.Collections;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * One request on a business thread, in three steps: the {@link RequestDecoder} turns the frame into a call, the
 * service's chain runs it (the {@link ContextFilter}, Ferry's provider filters, the user's, the implementation),
 * and the {@link Responder} answers. Every path of a two-way request writes exactly one answer; an {@code Error}
 * while decoding closes this one connection.
 */
final class RequestTask implements Runnable {
    private final Channel channel;
    private final InboundFrame frame;
    private final RequestDecoder decoder;
    private final long receivedNanos;
    private final Responder responder;
    private final Runnable done;
    private final Runnable released;
    private final ProviderLogs logs;

    /**
     * Made on the IO thread as the request arrives: its deadline counts from then, not from when a business thread
     * takes it. {@code done} runs exactly once, when the request has been answered (or dropped); {@code released}
     * gives back the request's place in the business pool as soon as it needs no thread: just before its answer
     * is written, or when this task ends (an asynchronous service answers later). It may run more than once.
     * {@code logs} are the server's, for what the peer causes.
     */
    RequestTask(Channel channel, InboundFrame frame, RequestDecoder decoder, int payloadLimit, Runnable done,
                Ticker ticker, Runnable released, ProviderLogs logs) {
        this.channel = channel;
        this.frame = frame;
        this.decoder = decoder;
        this.receivedNanos = ticker.nanoTime();
        this.responder = new Responder(channel, frame.id(), frame.isTwoWay(), payloadLimit, done, released,
                logs.answers);
        this.done = done;
        this.released = released;
        this.logs = logs;
    }

    @Override
    public void run() {
        try {
            DecodedRequest call = decode();
            if (call != null) {
                invoke(call);
            }
        } finally {
            released.run();
        }
    }

    /** The request will not run (its pool is shutting down): answered {@code status}, unrun, and counted out. */
    void refuseUnrun(RpcStatus status, String message) {
        try {
            responder.error(status, message);
        } finally {
            frame.release();
            released.run();
        }
    }

    /** The call, or null when the request was answered (or its connection closed) instead. */
    private DecodedRequest decode() {
        int size = frame.body().readableBytes();
        try {
            return decoder.decode(frame, receivedNanos, channel.localAddress());
        } catch (RequestDecoder.Rejection r) {
            responder.error(r.status, r.getMessage());
        } catch (IOException | RuntimeException e) {
            // the message names a refused class and sizes, never the decoded values; the log escapes it
            logs.refused.warn("{}: refused a {}-byte request: {}", channel.remoteAddress(), size, e.getMessage());
            responder.error(RpcStatus.BAD_REQUEST, "Fail to decode request due to: " + e.getMessage());
        } catch (Error e) {
            done.run();
            // the decoder is in an unknown state: drop this one connection, keep serving everyone else
            logs.failures.error("{}: {} while decoding a {}-byte request; closing this connection",
                    channel.remoteAddress(), e.getClass().getName(), size);
            channel.close();
        } finally {
            frame.release();
        }
        return null;
    }

    private void invoke(DecodedRequest call) {
        if (call.echo()) {
            responder.answer(call, call.arguments()[0], null, Collections.emptyMap());
            return;
        }
        ServiceCounters counters = call.service().counters();
        counters.started();
        CompletableFuture<Result> result;
        try {
            result = new ContextFilter(channel.remoteAddress(), TlsPipeline.identity(channel))
                    .invoke(call.invocation(!frame.isTwoWay()), call.service().invoker());
        } catch (RuntimeException | Error e) {
            counters.ended();
            throw e;
        }
        result.whenComplete((value, error) -> {
            counters.ended();
            try {
                answer(call, value, error);
            } catch (Throwable t) {
                // never leave a caller waiting for its timeout because answering failed
                logs.failures.error("{}: cannot answer {}: {}", channel.remoteAddress(), call.describe(),
                        t.getClass().getName());
                responder.error(RpcStatus.BAD_RESPONSE, "Failed to send response of " + call.describe() + ": "
                        + t.getClass().getName());
            }
        });
    }

    private void answer(DecodedRequest call, Result value, Throwable error) {
        if (error == null) {
            // a generic caller has no classes of the service: its result goes back as Dubbo's maps
            responder.answer(call, call.generalizeResult() ? PojoMaps.generalize(value.value()) : value.value(),
                    null, value.attachments());
            return;
        }
        Throwable thrown = Invokers.unwrap(error);
        Map<String, Object> attachments = Collections.emptyMap();
        if (thrown instanceof ContextFilter.AttachedFailure attached) {
            attachments = attached.attachments;
            thrown = attached.getCause();
        }
        if (thrown instanceof ProviderRefusal refusal) {
            // a provider filter refused the call unrun: a status the consumer can act on, not a value
            responder.error(refusal.status(), refusal.getMessage());
        } else {
            // as a Dubbo provider answers a generic caller, which may not have the exception's class
            responder.answer(call, null, call.generic() ? new GenericFailure(thrown) : thrown, attachments);
        }
    }
}
