package io.ferry.rpc.config.internal;

/** A registry's meters as text, for the admin port's {@code /metrics}. */
public interface MetricsScrape {
    /** The Prometheus text exposition format, version 0.0.4, which every Prometheus server reads. */
    String CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

    /** Every meter now. Called on the admin port's thread; may take a few milliseconds for a large registry. */
    String scrape();
}
