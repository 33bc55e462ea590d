package io.ferry.rpc.remoting.internal.server;

import io.ferry.rpc.RpcStatus;
import io.ferry.rpc.remoting.internal.codec.Frame;
import io.ferry.rpc.remoting.internal.codec.FrameEncoder;
import io.ferry.rpc.remoting.internal.codec.ResponseCodec;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.util.ReferenceCountUtil;
import io.ferry.rpc.remoting.internal.log.PeerLog;

import java.io.IOException;
import java.util.Map;

/**
 * Call to frame: encodes one request's answer (a value, an exception, or an error status) and hands it to the
 * connection's answer queue. A one-way request is only counted out. Exactly one answer, or a close of the
 * connection when not even an error answer can be built, for every two-way request.
 */
final class Responder {
    private final Channel channel;
    private final long requestId;
    private final boolean twoWay;
    private final int payloadLimit;
    private final Runnable done;
    private final Runnable released;
    private final PeerLog log;

    /**
     * @param done     runs once, when the answer has left (or the request needs none)
     * @param released gives the request's place in the business pool back; may run more than once
     * @param log      for answers that could not be sent: a peer may ask for them again and again
     */
    Responder(Channel channel, long requestId, boolean twoWay, int payloadLimit, Runnable done, Runnable released,
              PeerLog log) {
        this.channel = channel;
        this.requestId = requestId;
        this.twoWay = twoWay;
        this.payloadLimit = payloadLimit;
        this.done = done;
        this.released = released;
        this.log = log;
    }

    /** Answers the call's value, or {@code exception} when not null, with {@code attachments}. */
    void answer(DecodedRequest call, Object value, Throwable exception, Map<String, Object> attachments) {
        if (!twoWay) {
            done.run();
            return;
        }
        if (call.deadline().isExpired()) {
            // its caller has stopped waiting: a short answer instead of encoding and sending the whole value
            error(RpcStatus.TIMEOUT, "The answer of " + call.describe() + " was not sent: its caller's deadline"
                    + " of " + call.deadline().timeoutMillis() + " ms passed while it ran");
            return;
        }
        ByteBuf out;
        try {
            out = FrameEncoder.encode(channel.alloc(), Frame.HESSIAN2, Frame.STATUS_OK, requestId,
                    call.service().schema().serializerFactory(), payloadLimit, o -> {
                        if (exception != null) {
                            ResponseCodec.writeException(o, call.withResponseAttachments(), exception, attachments);
                        } else {
                            ResponseCodec.writeValue(o, call.withResponseAttachments(), value, attachments);
                        }
                    });
        } catch (FrameEncoder.PayloadTooLargeException e) {
            log.warn("{}: answer to {} not sent: {}", channel.remoteAddress(), call.describe(), e.getMessage());
            error(RpcStatus.PAYLOAD_TOO_LARGE, RpcStatus.PAYLOAD_TOO_LARGE_PREFIX + "the answer of "
                    + call.describe() + " was not sent: " + e.getMessage());
            return;
        } catch (IOException | RuntimeException | Error e) {
            log.warn("{}: cannot serialize the answer to {}: {}", channel.remoteAddress(), call.describe(),
                    e.toString());
            error(RpcStatus.BAD_RESPONSE, "Failed to send response of " + call.describe() + ": " + e);
            return;
        }
        ServerConnection connection = ServerConnection.of(channel);
        if (connection == null) {
            send(out);
            return;
        }
        released.run();
        try {
            connection.answers().send(out, requestId, call.deadline(), done);
        } catch (Throwable t) {
            ReferenceCountUtil.safeRelease(out);
            closeUnanswered(t);
        }
    }

    /** Answers an error status. Never throws: an answer that cannot be built closes the connection instead. */
    void error(RpcStatus status, String message) {
        if (!twoWay) {
            done.run();
            return;
        }
        ByteBuf out;
        try {
            out = FrameEncoder.errorResponse(channel.alloc(), requestId, status, message);
        } catch (Throwable t) {
            closeUnanswered(t);
            return;
        }
        send(out);
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
                    requestId, cause.toString());
            channel.close();
        } finally {
            done.run();
        }
    }
}
