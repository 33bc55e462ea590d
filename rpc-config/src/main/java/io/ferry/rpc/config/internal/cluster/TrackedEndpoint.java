package io.ferry.rpc.config.internal.cluster;

import io.ferry.rpc.Invocation;
import io.ferry.rpc.Result;
import io.ferry.rpc.RpcException;
import io.ferry.rpc.RpcStatus;
import io.ferry.rpc.Ticker;
import io.ferry.rpc.cluster.Endpoint;
import io.ferry.rpc.cluster.EndpointStats;
import io.ferry.rpc.remoting.ProviderEndpoint;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongSupplier;

/**
 * One provider as one reference's cluster sees it: the remoting endpoint, plus what the balancers read (calls in
 * flight, a peak-EWMA of response times, successes and failures), the outlier detector that takes it out of
 * rotation, and its weight ramped up over its warm-up; and the token every call to it must carry, when it asks for
 * one. Thread-safe.
 */
public final class TrackedEndpoint implements Endpoint, EndpointStats {
    /** How fast the response-time average forgets: a few seconds, so a provider that was slow is tried again. */
    static final long LATENCY_TAU_NANOS = TimeUnit.SECONDS.toNanos(2);
    /** The attachment a provider's token check reads (Dubbo's). */
    private static final String TOKEN = "token";

    private final ProviderEndpoint endpoint;
    private final Ticker ticker;
    private final LongSupplier wallClockMillis;
    private final OutlierDetector outlier;
    private final int weight;
    private final long startedAtMillis;
    private final long warmupMillis;
    private final AtomicInteger active = new AtomicInteger();
    private final LongAdder succeeded = new LongAdder();
    private final LongAdder failed = new LongAdder();
    private final PeakEwma latency = new PeakEwma(LATENCY_TAU_NANOS);
    /** What every call to this provider carries as its {@code token} attachment (Dubbo's), or null for none. */
    private final String token;

    /** @param token the provider's token, from its registry URL or the reference's url; null for none */
    TrackedEndpoint(ProviderEndpoint endpoint, int weight, Ejections ejections, Ticker ticker,
                    LongSupplier wallClockMillis, long startedAtMillis, long warmupMillis, String token) {
        this.endpoint = endpoint;
        this.token = token;
        this.ticker = ticker;
        this.wallClockMillis = wallClockMillis;
        this.outlier = new OutlierDetector(endpoint.address(), ejections);
        this.weight = weight;
        this.startedAtMillis = startedAtMillis;
        this.warmupMillis = warmupMillis;
    }

    ProviderEndpoint endpoint() {
        return endpoint;
    }

    OutlierDetector outlier() {
        return outlier;
    }

    @Override
    public CompletableFuture<Result> invoke(Invocation invocation) {
        long start = ticker.nanoTime();
        outlier.sending(start);
        active.incrementAndGet();
        CompletableFuture<Result> call;
        try {
            call = endpoint.invoke(token == null ? invocation : withToken(invocation));
        } catch (RuntimeException e) {
            call = CompletableFuture.failedFuture(e);
        }
        call.whenComplete((result, error) -> ended(start, error));
        return call;
    }

    /** A copy for this attempt: one call may go to several providers, each with a token of its own. */
    private Invocation withToken(Invocation invocation) {
        Map<String, Object> attachments = new HashMap<>(invocation.attachments());
        attachments.put(TOKEN, token);
        return invocation.withAttachments(attachments);
    }

    private void ended(long start, Throwable error) {
        active.decrementAndGet();
        long now = ticker.nanoTime();
        Throwable cause = error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
        if (cause instanceof RpcException rpc && rpc.isNotExecuted() && !providerDidNotAnswer(rpc)) {
            // refused unrun (full pool, limit, shutting down) or failed before it was sent: neither an answer to
            // learn a response time from nor a sign of a frozen provider
            outlier.inconclusive();
        } else if (cause instanceof RpcException rpc && providerDidNotAnswer(rpc)) {
            failed.increment();
            if (rpc.status() == RpcStatus.TIMEOUT && !rpc.isNotExecuted()) {
                latency.record(now - start, now); // as slow as the call let it be
            }
            outlier.failed(now);
        } else {
            succeeded.increment();
            latency.record(now - start, now);
            outlier.answered();
        }
    }

    /**
     * A call that was sent and then timed out or lost its connection. Anything the provider sent back (even an
     * error) is an answer; a call never sent (no connection) or dropped unrun says nothing about a frozen provider,
     * and a provider that cannot be connected is out of rotation already (not ready): counting that against it
     * would keep it out after it is back.
     */
    private static boolean providerDidNotAnswer(RpcException e) {
        return (e.status() == RpcStatus.TIMEOUT || e.status() == RpcStatus.NETWORK) && !e.isNotExecuted();
    }

    @Override
    public String address() {
        return endpoint.address();
    }

    @Override
    public int weight() {
        if (weight <= 0 || startedAtMillis <= 0 || warmupMillis <= 0) {
            return weight;
        }
        long uptime = wallClockMillis.getAsLong() - startedAtMillis;
        if (uptime <= 0) {
            return 1;
        }
        if (uptime >= warmupMillis) {
            return weight;
        }
        return (int) Math.max(1, Math.min(weight, (double) uptime / warmupMillis * weight));
    }

    @Override
    public boolean isReady() {
        return endpoint.isReady() && outlier.admits(ticker.nanoTime());
    }

    @Override
    public EndpointStats stats() {
        return this;
    }

    @Override
    public int active() {
        return active.get();
    }

    @Override
    public double latencyNanos() {
        return latency.get(ticker.nanoTime());
    }

    @Override
    public long succeeded() {
        return succeeded.sum();
    }

    @Override
    public long failed() {
        return failed.sum();
    }

    @Override
    public String toString() {
        return address() + " (active " + active() + ", latency " + (long) (latencyNanos() / 1000) + " us, "
                + outlier.state(ticker.nanoTime()) + ")";
    }
}
