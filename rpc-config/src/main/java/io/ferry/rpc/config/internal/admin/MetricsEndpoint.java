package io.ferry.rpc.config.internal.admin;

import io.ferry.rpc.config.internal.FerryRuntime;
import io.ferry.rpc.config.internal.MetricsScrape;
import io.ferry.rpc.remoting.AdminRequest;
import io.ferry.rpc.remoting.AdminResponse;

import java.util.concurrent.CompletionStage;

/**
 * {@code GET /metrics}: the meters in Prometheus's text format, where the application gave Ferry a Prometheus meter
 * registry (micrometer-registry-prometheus); a 404 saying how to get one otherwise. Scraped on the admin thread.
 */
final class MetricsEndpoint {
    static final String NONE = "no Prometheus registry: hand Ferry a PrometheusMeterRegistry "
            + "(micrometer-registry-prometheus) with Ferry.builder().observability(Observability.meters(registry)), "
            + "or, where code gives Ferry no registry, set metrics=prometheus on the application "
            + "(ferry.application.metrics) for one of Ferry's own";

    private final FerryRuntime runtime;

    MetricsEndpoint(FerryRuntime runtime) {
        this.runtime = runtime;
    }

    CompletionStage<AdminResponse> metrics(AdminRequest request) {
        MetricsScrape scrape = runtime.scrape();
        if (scrape == null) {
            return AdminResponse.error(404, NONE).now();
        }
        return new AdminResponse(200, MetricsScrape.CONTENT_TYPE, scrape.scrape()).now();
    }
}
