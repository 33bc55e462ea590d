package io.ferry.rpc.cluster;

import io.ferry.rpc.Invocation;

import java.util.List;

/** Picks the provider for one attempt of a call. Implementations are thread-safe and must not block. */
@FunctionalInterface
public interface LoadBalancer {
    /**
     * Picks one of {@code candidates} (never empty; the fault-tolerance strategy has already removed providers
     * this call tried) for {@code invocation}.
     */
    Endpoint select(List<Endpoint> candidates, Invocation invocation);
}
