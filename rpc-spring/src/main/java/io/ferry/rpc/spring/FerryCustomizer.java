package io.ferry.rpc.spring;

import io.ferry.rpc.config.Ferry;

/**
 * A bean that adds to the Ferry's builder before the context's Ferry is built: observability, most often
 * ({@code builder.observability(Observability.of(observations, meters))}). Applied in the beans' order.
 */
@FunctionalInterface
public interface FerryCustomizer {
    void customize(Ferry.Builder builder);
}
