package io.ferry.rpc.config.internal;

import io.ferry.rpc.Filter;
import io.ferry.rpc.Invocation;
import io.ferry.rpc.Invoker;
import io.ferry.rpc.ProviderRefusal;
import io.ferry.rpc.Result;
import io.ferry.rpc.RpcException;
import io.ferry.rpc.RpcStatus;

import java.lang.reflect.Method;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.ToIntFunction;

/**
 * At most {@code limit} calls of each method at once: Dubbo's {@code actives} on a reference (calls in flight) and
 * {@code executes} on a service (calls running). A call over the limit is refused at once, not executed, with
 * {@link RpcStatus#LIMIT_EXCEEDED}: a consumer may then try another provider.
 */
public final class ConcurrencyLimit implements Filter {
    private final String option;
    private final String where;
    private final ToIntFunction<Method> limit;
    /** On a provider, a refusal it answers as its status; on a consumer, the caller's failure. */
    private final boolean provider;
    private final Map<Method, AtomicInteger> running = new ConcurrentHashMap<>();

    private ConcurrencyLimit(String option, String where, ToIntFunction<Method> limit, boolean provider) {
        this.provider = provider;
        this.option = option;
        this.where = where;
        this.limit = limit;
    }

    /** The consumer's {@code actives}: calls in flight per method of one reference (0 for a method: no limit). */
    public static ConcurrencyLimit actives(ToIntFunction<Method> limit, String reference) {
        return new ConcurrencyLimit("actives", "the reference to " + reference, limit, false);
    }

    /** The provider's {@code executes}: calls running per method of one service (0 for a method: no limit). */
    public static ConcurrencyLimit executes(ToIntFunction<Method> limit, String service) {
        return new ConcurrencyLimit("executes", "the service " + service, limit, true);
    }

    @Override
    public CompletableFuture<Result> invoke(Invocation invocation, Invoker next) {
        int limit = this.limit.applyAsInt(invocation.method());
        if (limit <= 0) {
            return next.invoke(invocation);
        }
        AtomicInteger count = running.computeIfAbsent(invocation.method(), m -> new AtomicInteger());
        if (count.incrementAndGet() > limit) {
            count.decrementAndGet();
            String message = RpcStatus.LIMIT_EXCEEDED_PREFIX + invocation.description() + " already has " + limit
                    + " calls at once on " + where + " (" + option + " = " + limit + ")";
            return CompletableFuture.failedFuture(provider ? new ProviderRefusal(RpcStatus.LIMIT_EXCEEDED, message)
                    : RpcException.notExecuted(RpcStatus.LIMIT_EXCEEDED, message, null));
        }
        CompletableFuture<Result> call;
        try {
            call = next.invoke(invocation);
        } catch (RuntimeException e) {
            count.decrementAndGet();
            throw e;
        }
        call.whenComplete((r, e) -> count.decrementAndGet());
        return call;
    }
}
