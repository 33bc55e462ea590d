package io.ferry.rpc.benchmark.demo;

import io.ferry.rpc.config.Observability;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;

/**
 * The meters behind a demo side's admin page: a Prometheus registry of its own, so the page shows calls/s, errors
 * and latency and {@code /metrics} answers. Loaded only with {@code --admin-seconds}: the plain demo runs without
 * Micrometer.
 */
final class DemoMeters {
    private DemoMeters() {
    }

    static Observability observability() {
        return Observability.meters(new PrometheusMeterRegistry(PrometheusConfig.DEFAULT));
    }
}
