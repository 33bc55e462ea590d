package io.ferry.rpc.config.internal;

/**
 * What a Ferry's observability consists of, Micrometer-free so that a Ferry without it loads none of Micrometer:
 * the filters that observe calls, the meters of its parts, and what its admin port serves at {@code /metrics} and
 * {@code /calls}.
 *
 * @param instrumentation the filters that observe calls, or null when nothing observes them
 * @param meters          where the parts the runtime starts are metered, {@link RuntimeMeters#NONE} for nowhere
 * @param scrape          the meters in Prometheus's text format, or null when no Prometheus registry holds them
 * @param calls           the calls' timers summed per side, service and method, or null without a meter registry
 */
public record Observed(Instrumentation instrumentation, RuntimeMeters meters, MetricsScrape scrape,
                       CallTotals calls) {
    /** A Ferry that observes nothing. */
    public static final Observed NONE = new Observed(null, RuntimeMeters.NONE, null, null);

    public Observed {
        meters = meters == null ? RuntimeMeters.NONE : meters;
    }
}
