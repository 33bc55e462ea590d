package io.ferry.rpc.remoting.internal.admin;

import io.ferry.rpc.remoting.AdminRequest;
import io.ferry.rpc.remoting.AdminResponse;
import io.ferry.rpc.remoting.AdminRoute;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.handler.codec.http.QueryStringDecoder;
import io.netty.handler.codec.http.TooLongHttpHeaderException;
import io.netty.handler.codec.http.TooLongHttpLineException;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.ScheduledFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;

/**
 * One admin connection, after the HTTP codec: one request at a time, each checked (its peer, its size, its time),
 * routed and answered; anything wrong is answered with a 4xx and the connection closed. Runs on the admin thread
 * only, so its state needs no lock.
 */
public final class AdminConnection extends ChannelInboundHandlerAdapter {
    private static final Logger log = LoggerFactory.getLogger(AdminConnection.class);

    private final AdminRouter router;
    private final AdminLimits limits;
    private ScheduledFuture<?> deadline;
    /** Bytes of a request not answered yet have arrived (set by {@link #arrivals()}). */
    private boolean started;
    /** The head of the request being read; null between requests. */
    private HttpRequest head;
    private long bodyBytes;
    /** A handler is answering: what arrives meanwhile (pipelined requests) is dropped, and closes after. */
    private boolean answering;
    private boolean closeAfterAnswer;
    private boolean closing;

    public AdminConnection(AdminRouter router, AdminLimits limits) {
        this.router = router;
        this.limits = limits;
    }

    /** Goes before the HTTP codec: notes that a request has begun, which the codec says only once its line is in. */
    public ChannelInboundHandlerAdapter arrivals() {
        return new ChannelInboundHandlerAdapter() {
            @Override
            public void channelRead(ChannelHandlerContext ctx, Object msg) {
                if (msg instanceof ByteBuf bytes && bytes.isReadable()) {
                    started = true;
                }
                ctx.fireChannelRead(msg);
            }
        };
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) throws Exception {
        arm(ctx);
        super.channelActive(ctx);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        disarm();
        super.channelInactive(ctx);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        try {
            if (closing) {
                return;
            }
            if (answering) {
                closeAfterAnswer = true; // pipelining is not served: the client sends it again on a new connection
                return;
            }
            if (msg instanceof HttpRequest request && !readHead(ctx, request)) {
                return;
            }
            if (msg instanceof HttpContent content && head != null) {
                readContent(ctx, content);
            }
        } finally {
            ReferenceCountUtil.release(msg);
        }
    }

    /** Checks a request's head; false when it was refused. */
    private boolean readHead(ChannelHandlerContext ctx, HttpRequest request) {
        if (request.decoderResult().isFailure()) {
            Throwable cause = request.decoderResult().cause();
            if (cause instanceof TooLongHttpLineException) {
                refuse(ctx, HttpResponseStatus.REQUEST_URI_TOO_LONG, "request line over "
                        + AdminLimits.MAX_LINE_BYTES + " bytes");
            } else if (cause instanceof TooLongHttpHeaderException) {
                refuse(ctx, HttpResponseStatus.REQUEST_HEADER_FIELDS_TOO_LARGE, "headers over "
                        + AdminLimits.MAX_HEADER_BYTES + " bytes");
            } else {
                refuse(ctx, HttpResponseStatus.BAD_REQUEST, "not an HTTP/1.1 request");
            }
            return false;
        }
        if (!limits.acceptForeignIp() && !PeerAddresses.isLocal(ctx.channel().remoteAddress())) {
            refuse(ctx, HttpResponseStatus.FORBIDDEN, "the admin port serves this machine only "
                    + "(qos-accept-foreign-ip is false)");
            return false;
        }
        String foreignOrigin = foreignOrigin(request);
        if (foreignOrigin != null) {
            refuse(ctx, HttpResponseStatus.FORBIDDEN, "a command from a page of another origin (" + foreignOrigin
                    + "): commands are taken from this port's own page, curl and probes only");
            return false;
        }
        if (HttpUtil.getContentLength(request, -1L) > AdminLimits.MAX_BODY_BYTES) {
            refuse(ctx, HttpResponseStatus.REQUEST_ENTITY_TOO_LARGE, "body over " + AdminLimits.MAX_BODY_BYTES
                    + " bytes");
            return false;
        }
        head = request;
        bodyBytes = 0;
        return true;
    }

    /**
     * The origin of a page on another site that sends a command, or null. A browser names the page a POST comes from
     * in {@code Origin}, and lets any page send a form's POST to 127.0.0.1: without this check, a site the operator
     * visits could take the provider offline. Curl and probes send no {@code Origin}; this port's own page sends its
     * own, which matches the {@code Host} it was loaded from.
     */
    private static String foreignOrigin(HttpRequest request) {
        String origin = request.headers().get(HttpHeaderNames.ORIGIN);
        if (origin == null || !HttpMethod.POST.equals(request.method())) {
            return null;
        }
        String host = request.headers().get(HttpHeaderNames.HOST);
        return host != null && origin.equalsIgnoreCase("http://" + host) ? null : origin;
    }

    private void readContent(ChannelHandlerContext ctx, HttpContent content) {
        if (content.decoderResult().isFailure()) {
            refuse(ctx, HttpResponseStatus.BAD_REQUEST, "malformed body");
            return;
        }
        bodyBytes += content.content().readableBytes();
        if (bodyBytes > AdminLimits.MAX_BODY_BYTES) {
            refuse(ctx, HttpResponseStatus.REQUEST_ENTITY_TOO_LARGE, "body over " + AdminLimits.MAX_BODY_BYTES
                    + " bytes");
            return;
        }
        if (content instanceof LastHttpContent) {
            HttpRequest request = head;
            head = null;
            dispatch(ctx, request);
        }
    }

    private void dispatch(ChannelHandlerContext ctx, HttpRequest request) {
        disarm(); // the request is in; how long its handler takes is the handler's affair
        answering = true;
        ctx.channel().config().setAutoRead(false);
        boolean keepAlive = HttpUtil.isKeepAlive(request);
        QueryStringDecoder uri = new QueryStringDecoder(request.uri());
        String method = request.method().name();
        AdminRoute route = router.find(method, uri.path());
        if (route == null) {
            String allowed = router.allowed(uri.path());
            AdminResponse refusal = allowed.isEmpty() ? AdminResponse.error(404, "no such path")
                    : AdminResponse.error(405, method + " not allowed here (allowed: " + allowed + ")");
            answer(ctx, refusal, allowed, keepAlive);
            return;
        }
        CompletionStage<AdminResponse> answered;
        try {
            answered = route.handler().handle(new AdminRequest(method, uri.path(), firstValues(uri),
                    String.valueOf(ctx.channel().remoteAddress())));
        } catch (Exception | LinkageError e) {
            answer(ctx, failed(route, e), "", keepAlive);
            return;
        }
        answered.whenCompleteAsync((response, failure) -> answer(ctx,
                failure != null || response == null ? failed(route, failure) : response, "", keepAlive),
                ctx.executor());
    }

    private static AdminResponse failed(AdminRoute route, Throwable failure) {
        // the message may hold configuration or a peer's words: the log has it, the answer does not
        log.warn("admin {} {} failed", route.method(), route.path(), failure);
        return AdminResponse.error(500, "internal error (see the process's log)");
    }

    private static Map<String, String> firstValues(QueryStringDecoder uri) {
        Map<String, String> first = new LinkedHashMap<>();
        for (Map.Entry<String, List<String>> e : uri.parameters().entrySet()) {
            if (!e.getValue().isEmpty()) {
                first.put(e.getKey(), e.getValue().get(0));
            }
        }
        return first;
    }

    /** Writes an answer; keeps the connection for the next request, or closes it once written. */
    private void answer(ChannelHandlerContext ctx, AdminResponse response, String allow, boolean keepAlive) {
        if (!ctx.channel().isActive()) {
            return;
        }
        boolean keep = keepAlive && !closeAfterAnswer;
        FullHttpResponse http = response(response, allow, keep);
        if (!keep) {
            closing = true;
            ctx.writeAndFlush(http).addListener(ChannelFutureListener.CLOSE);
            return;
        }
        ctx.writeAndFlush(http);
        answering = false;
        started = false;
        arm(ctx);
        ctx.channel().config().setAutoRead(true);
    }

    /** Answers {@code status} with the reason and closes: what every bad request gets. */
    private void refuse(ChannelHandlerContext ctx, HttpResponseStatus status, String reason) {
        disarm();
        closing = true;
        head = null;
        ctx.writeAndFlush(response(AdminResponse.error(status.code(), reason), "", false))
                .addListener(ChannelFutureListener.CLOSE);
    }

    private static FullHttpResponse response(AdminResponse response, String allow, boolean keepAlive) {
        ByteBuf body = Unpooled.wrappedBuffer(response.body().getBytes(StandardCharsets.UTF_8));
        FullHttpResponse http = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1,
                HttpResponseStatus.valueOf(response.status()), body);
        http.headers().set(HttpHeaderNames.CONTENT_TYPE, response.contentType())
                .setInt(HttpHeaderNames.CONTENT_LENGTH, body.readableBytes())
                .set(HttpHeaderNames.CACHE_CONTROL, HttpHeaderValues.NO_STORE)
                .set(HttpHeaderNames.CONNECTION, keepAlive ? HttpHeaderValues.KEEP_ALIVE : HttpHeaderValues.CLOSE);
        if (!allow.isEmpty()) {
            http.headers().set(HttpHeaderNames.ALLOW, allow);
        }
        return http;
    }

    /** The next request must be complete within the timeout, counted from now. */
    private void arm(ChannelHandlerContext ctx) {
        disarm();
        deadline = ctx.executor().schedule(() -> timedOut(ctx), limits.requestTimeoutNanos(), TimeUnit.NANOSECONDS);
    }

    private void disarm() {
        if (deadline != null) {
            deadline.cancel(false);
            deadline = null;
        }
    }

    /** A request begun and not finished in time gets 408; a connection that sent nothing is closed quietly. */
    private void timedOut(ChannelHandlerContext ctx) {
        deadline = null;
        if (answering || closing) {
            return;
        }
        if (started) {
            refuse(ctx, HttpResponseStatus.REQUEST_TIMEOUT, "request not complete within "
                    + TimeUnit.NANOSECONDS.toMillis(limits.requestTimeoutNanos()) + " ms");
        } else {
            closing = true;
            ctx.close();
        }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        log.debug("admin connection {}: {}", ctx.channel().remoteAddress(), cause.toString());
        closing = true;
        ctx.close();
    }
}
