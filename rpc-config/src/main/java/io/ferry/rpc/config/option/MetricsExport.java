package io.ferry.rpc.config.option;

/**
 * Where a Ferry configured by file alone puts its meters ({@code metrics} on the application). Code and Spring give
 * Ferry a registry of their own instead ({@code Observability}).
 */
public enum MetricsExport {
    /** Default: no meters, unless code gives Ferry a registry. */
    NONE,
    /**
     * A Prometheus registry of Ferry's own (micrometer-registry-prometheus on the class path): the calls' timers,
     * Ferry's gauges and counters, and the JVM's and the process's usual meters, served at the admin port's
     * {@code /metrics}; closed with the Ferry.
     */
    PROMETHEUS
}
