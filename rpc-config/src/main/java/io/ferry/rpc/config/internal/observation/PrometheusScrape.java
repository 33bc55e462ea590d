package io.ferry.rpc.config.internal.observation;

import io.ferry.rpc.config.internal.MetricsScrape;
import io.ferry.rpc.config.internal.OwnMetrics;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.composite.CompositeMeterRegistry;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The Prometheus registry among the application's meters (itself, or inside a composite), scraped through its own
 * {@code scrape()}: found by class name, so that Ferry needs micrometer-registry-prometheus neither to compile nor
 * to run, and takes either of its generations (the Prometheus 1.x client's, and the older simpleclient's).
 */
final class PrometheusScrape implements MetricsScrape {
    private static final Set<String> REGISTRIES = OwnMetrics.PROMETHEUS_PACKAGES.stream()
            .map(generation -> generation + ".PrometheusMeterRegistry").collect(Collectors.toUnmodifiableSet());

    private final MeterRegistry registry;
    private final Method scrape;

    private PrometheusScrape(MeterRegistry registry, Method scrape) {
        this.registry = registry;
        this.scrape = scrape;
    }

    /** The scrape of the first Prometheus registry found in {@code meters}, or null when there is none. */
    static MetricsScrape find(MeterRegistry meters) {
        Deque<MeterRegistry> toSee = new ArrayDeque<>();
        toSee.add(meters);
        while (!toSee.isEmpty()) {
            MeterRegistry registry = toSee.poll();
            if (registry instanceof CompositeMeterRegistry composite) {
                toSee.addAll(composite.getRegistries());
                continue;
            }
            for (Class<?> type = registry.getClass(); type != null; type = type.getSuperclass()) {
                if (REGISTRIES.contains(type.getName())) {
                    try {
                        return new PrometheusScrape(registry, type.getMethod("scrape"));
                    } catch (NoSuchMethodException e) {
                        return null; // a generation Ferry does not know: /metrics says there is none
                    }
                }
            }
        }
        return null;
    }

    @Override
    public String scrape() {
        try {
            return (String) scrape.invoke(registry);
        } catch (IllegalAccessException e) {
            throw new IllegalStateException("cannot scrape " + registry.getClass().getName(), e);
        } catch (InvocationTargetException e) {
            throw e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
        }
    }
}
