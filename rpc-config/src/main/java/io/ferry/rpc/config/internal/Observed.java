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
 * @param owned           what Ferry made for itself and closes with the runtime (its own registry), or null
 */
public record Observed(Instrumentation instrumentation, RuntimeMeters meters, MetricsScrape scrape,
                       CallTotals calls, AutoCloseable owned) {
    /** A Ferry that observes nothing. */
    public static final Observed NONE = new Observed(null, RuntimeMeters.NONE, null, null);

    public Observed {
        meters = meters == null ? RuntimeMeters.NONE : meters;
    }

    /** Over registries the application owns. */
    public Observed(Instrumentation instrumentation, RuntimeMeters meters, MetricsScrape scrape, CallTotals calls) {
        this(instrumentation, meters, scrape, calls, null);
    }

    /** The same, closing {@code owned} with the runtime. */
    public Observed owning(AutoCloseable owned) {
        return new Observed(instrumentation, meters, scrape, calls, owned);
    }
}
