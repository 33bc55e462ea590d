package io.ferry.rpc;

import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Code around every call: context propagation, metrics, auth, logging. A consumer filter runs on the calling
 * thread before the cluster picks a provider, once per call (not per retry); a provider filter runs on the
 * business thread before the implementation. A filter calls {@code next} to go on (or answers itself), and may
 * observe or transform the future it returns. Filters must not block.
 * <pre>{@code
 * Filter tracing = (invocation, next) -> {
 *     invocation.attachments().put("trace-id", Tracing.currentId());
 *     return next.invoke(invocation);
 * };
 * }</pre>
 */
@FunctionalInterface
public interface Filter {
    CompletableFuture<Result> invoke(Invocation invocation, Invoker next);

    /** {@code filters} in order around {@code last}: the first filter runs first. */
    static Invoker chain(List<Filter> filters, Invoker last) {
        Invoker next = last;
        for (int i = filters.size() - 1; i >= 0; i--) {
            Filter filter = filters.get(i);
            Invoker after = next;
            next = invocation -> filter.invoke(invocation, after);
        }
        return next;
    }
}
