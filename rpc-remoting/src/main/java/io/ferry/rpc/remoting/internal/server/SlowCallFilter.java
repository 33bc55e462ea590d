package io.ferry.rpc.remoting.internal.server;

import io.ferry.rpc.Filter;
import io.ferry.rpc.Invocation;
import io.ferry.rpc.Invoker;
import io.ferry.rpc.Result;
import io.ferry.rpc.RpcContext;
import io.ferry.rpc.Ticker;
import io.ferry.rpc.remoting.internal.log.PeerLog;

import java.net.SocketAddress;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * Logs a call that ran longer than its provider-side timeout (the service's, or its method's). The answer still
 * goes out: the provider's timeout is a budget to report on, the caller's deadline is what ends a call.
 */
final class SlowCallFilter implements Filter {
    private final long timeoutNanos;
    private final Map<String, Long> methodTimeoutNanos = new HashMap<>();
    private final Ticker ticker;
    /** A peer can make calls slow (big arguments, a flood): at most PeerLog's lines a second per service. */
    private final PeerLog log;

    /** {@code timeout}: the service's, or null for none; {@code methodTimeouts} override it by method name. */
    SlowCallFilter(Duration timeout, Map<String, Duration> methodTimeouts, Ticker ticker) {
        this.timeoutNanos = timeout == null ? 0 : timeout.toNanos();
        methodTimeouts.forEach((method, t) -> methodTimeoutNanos.put(method, t.toNanos()));
        this.ticker = ticker;
        this.log = new PeerLog(SlowCallFilter.class, ticker);
    }

    @Override
    public CompletableFuture<Result> invoke(Invocation invocation, Invoker next) {
        long timeout = methodTimeoutNanos.getOrDefault(invocation.method().getName(), timeoutNanos);
        if (timeout <= 0) {
            return next.invoke(invocation);
        }
        long started = ticker.nanoTime();
        CompletableFuture<Result> result = next.invoke(invocation);
        if (result.isDone()) { // a synchronous service: checked now, with no stage added to every call
            long took = ticker.nanoTime() - started;
            if (took > timeout) {
                reportIfSlow(invocation, took, timeout, RpcContext.current().remoteAddress());
            }
            return result;
        }
        SocketAddress from = RpcContext.current().remoteAddress();
        result.whenComplete((value, error) -> reportIfSlow(invocation, ticker.nanoTime() - started, timeout, from));
        return result;
    }

    private void reportIfSlow(Invocation invocation, long tookNanos, long timeoutNanos, SocketAddress from) {
        if (tookNanos > timeoutNanos) {
            log.warn("{} took {} ms, over its provider timeout of {} ms (a call from {})", invocation.description(),
                    TimeUnit.NANOSECONDS.toMillis(tookNanos), TimeUnit.NANOSECONDS.toMillis(timeoutNanos), from);
        }
    }
}
