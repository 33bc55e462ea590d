package io.ferry.rpc.config.internal.observation;

import io.ferry.rpc.config.internal.OwnMetrics;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.jvm.ClassLoaderMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;

import java.lang.reflect.InvocationTargetException;

/**
 * The Prometheus registry Ferry makes for itself when a file asks for one ({@code metrics=prometheus}), for
 * applications without code to give it theirs: beside Ferry's meters, the JVM's and the process's that every
 * Prometheus user expects next to them (memory, GC, threads, class loading, CPU, uptime), under Micrometer's names.
 * Made by class name, like {@link PrometheusScrape}'s lookup, so that Ferry needs micrometer-registry-prometheus
 * neither to compile nor to run without it; either generation of it. Ferry owns it: it closes with the Ferry.
 */
public final class OwnPrometheus implements AutoCloseable {
    private final MeterRegistry registry;
    private final JvmGcMetrics gc = new JvmGcMetrics();

    public OwnPrometheus() {
        registry = prometheus();
        try {
            new ClassLoaderMetrics().bindTo(registry);
            new JvmMemoryMetrics().bindTo(registry);
            gc.bindTo(registry);
            new JvmThreadMetrics().bindTo(registry);
            new ProcessorMetrics().bindTo(registry);
            new UptimeMetrics().bindTo(registry);
        } catch (RuntimeException | Error e) {
            close();
            throw e;
        }
    }

    private static MeterRegistry prometheus() {
        ClassLoader loader = OwnPrometheus.class.getClassLoader();
        for (String generation : OwnMetrics.PROMETHEUS_PACKAGES) {
            Class<?> config;
            try {
                config = Class.forName(generation + ".PrometheusConfig", true, loader);
            } catch (ClassNotFoundException e) {
                continue;
            }
            try {
                Object defaults = config.getField("DEFAULT").get(null);
                return (MeterRegistry) Class.forName(generation + ".PrometheusMeterRegistry", true, loader)
                        .getConstructor(config).newInstance(defaults);
            } catch (InvocationTargetException e) {
                throw new IllegalStateException("cannot make a Prometheus registry: " + e.getCause(), e.getCause());
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException("cannot make a Prometheus registry of " + generation + ": " + e, e);
            }
        }
        throw new IllegalStateException("micrometer-registry-prometheus is not on the class path");
    }

    public MeterRegistry registry() {
        return registry;
    }

    @Override
    public void close() {
        try {
            gc.close(); // its GC notification listeners
        } finally {
            registry.close();
        }
    }
}
