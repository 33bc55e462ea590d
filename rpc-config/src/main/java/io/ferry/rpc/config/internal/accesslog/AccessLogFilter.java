package io.ferry.rpc.config.internal.accesslog;

import io.ferry.rpc.Filter;
import io.ferry.rpc.Invocation;
import io.ferry.rpc.Invoker;
import io.ferry.rpc.PeerIdentity;
import io.ferry.rpc.Result;
import io.ferry.rpc.RpcContext;
import io.ferry.rpc.RpcException;
import io.ferry.rpc.Ticker;

import java.net.SocketAddress;
import java.time.Clock;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

/**
 * The access log's provider filter: one record per call, queued for its {@link AccessLogWriter}. Placed by Ferry in
 * front of the provider's own filters, so that it sees every call that reaches the service: those the token or
 * callers check refuses (FORBIDDEN) and those dropped because their caller's deadline passed (TIMEOUT) included,
 * and a failure as the service threw it. It reads no attachment, so never a token. On the business thread it only
 * reads the clocks and the call's context and, when asked, renders the arguments; the writer formats the line.
 */
public final class AccessLogFilter implements Filter {
    private final AccessLogWriter writer;
    private final boolean arguments;
    private final Ticker ticker;
    private final Clock wall;

    /** {@code arguments}: whether lines show argument values ({@code accessLogArguments}). */
    public AccessLogFilter(AccessLogWriter writer, boolean arguments, Ticker ticker, Clock wall) {
        this.writer = writer;
        this.arguments = arguments;
        this.ticker = ticker;
        this.wall = wall;
    }

    @Override
    public CompletableFuture<Result> invoke(Invocation invocation, Invoker next) {
        long started = ticker.nanoTime();
        long startMillis = wall.millis();
        RpcContext context = RpcContext.current(); // filled by the context filter, outside this one
        SocketAddress caller = context.remoteAddress();
        String commonName = context.peerIdentity().map(PeerIdentity::commonName).orElse(null);
        String shown = arguments ? ArgumentText.of(invocation.arguments()) : null;
        CompletableFuture<Result> result;
        try {
            result = next.invoke(invocation);
        } catch (RuntimeException | Error e) {
            result = CompletableFuture.failedFuture(e);
        }
        if (result == null) { // answered as the provider's chain answers it
            result = CompletableFuture.failedFuture(new IllegalStateException("the invoker returned no future"));
        }
        // the returned future stays the chain's own; a completed one runs this at once, on this thread
        result.whenComplete((value, error) -> writer.offer(new AccessRecord(startMillis,
                ticker.nanoTime() - started, caller, commonName, invocation.serviceKey(),
                invocation.method().getName(), status(error), shown)));
        return result;
    }

    /** OK, the status of a framework failure, or the class of what the service threw. */
    static String status(Throwable error) {
        if (error == null) {
            return "OK";
        }
        Throwable t = error;
        while ((t instanceof CompletionException || t instanceof ExecutionException) && t.getCause() != null) {
            t = t.getCause();
        }
        return t instanceof RpcException rpc ? rpc.status().name() : t.getClass().getName();
    }
}
