package io.ferry.rpc.config.internal;

/**
 * Whether the jars a Prometheus registry of Ferry's own needs are on the class path, asked by name so that a Ferry
 * without Micrometer loads none of it.
 */
public final class OwnMetrics {
    private OwnMetrics() {
    }

    /** The first missing jar's Maven coordinates, or null when none is missing. */
    public static String missingJar() {
        if (!present("io.micrometer.core.instrument.MeterRegistry")) {
            return "io.micrometer:micrometer-core";
        }
        if (!present("io.micrometer.prometheusmetrics.PrometheusMeterRegistry")
                && !present("io.micrometer.prometheus.PrometheusMeterRegistry")) {
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
