package io.ferry.rpc.config.internal;

import java.util.List;

/**
 * Whether the jars a Prometheus registry of Ferry's own needs are on the class path, asked by name so that a Ferry
 * without Micrometer loads none of it.
 */
public final class OwnMetrics {
    /**
     * The packages of micrometer-registry-prometheus's {@code PrometheusMeterRegistry} and {@code PrometheusConfig},
     * the Prometheus 1.x client's generation first, then the older simpleclient's: Ferry takes either.
     */
    public static final List<String> PROMETHEUS_PACKAGES = List.of("io.micrometer.prometheusmetrics",
            "io.micrometer.prometheus");

    private OwnMetrics() {
    }

    /** The first missing jar's Maven coordinates, or null when none is missing. */
    public static String missingJar() {
        if (!present("io.micrometer.core.instrument.MeterRegistry")) {
            return "io.micrometer:micrometer-core";
        }
        if (PROMETHEUS_PACKAGES.stream().noneMatch(p -> present(p + ".PrometheusMeterRegistry"))) {
            return "io.micrometer:micrometer-registry-prometheus";
        }
        return null;
    }

    private static boolean present(String className) {
        try {
            Class.forName(className, false, OwnMetrics.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }
}
