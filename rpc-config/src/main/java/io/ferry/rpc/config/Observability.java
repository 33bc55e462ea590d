package io.ferry.rpc.config;

import io.ferry.rpc.config.internal.Observed;
import io.ferry.rpc.config.internal.RuntimeMeters;
import io.ferry.rpc.config.internal.observation.FerryMeters;
import io.ferry.rpc.config.internal.observation.MicrometerInstrumentation;
import io.ferry.rpc.config.internal.observation.OwnPrometheus;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.observation.ObservationRegistry;

/**
 * Where Ferry's observations of calls go: Micrometer's registries, which the application owns, configures and
 * closes. Each call is observed once on each side, outermost in the filter chain, under the names and tags of
 * {@link io.ferry.rpc.config.observation.RpcObservations}.
 * <pre>{@code
 * Ferry ferry = Ferry.builder()
 *         .observability(Observability.of(observationRegistry, meterRegistry))
 *         .build();
 * }</pre>
 * <ul>
 *   <li>A {@code MeterRegistry} also gets gauges and counters of what the Ferry runs (connections, pools, bytes,
 *       retries, ejections, the registry's state, ...: the README's "Meters" table), removed when it closes.</li>
 *   <li>An {@code ObservationRegistry} gets every call's observation; its handlers make of it what they make: spans
 *       (with a micrometer-tracing bridge, whose propagator writes the trace context into the call's attachments;
 *       W3C {@code traceparent} is what Dubbo's tracing reads and sends), timers (a meter handler), log lines.</li>
 *   <li>A {@code MeterRegistry} alone: Ferry records the calls' timers in it through an observation registry of its
 *       own. Beside an observation registry, it is not given the calls (the observation registry's handlers decide
 *       that).</li>
 * </ul>
 * This class, and everything behind it, is the one part of Ferry that needs Micrometer on the class path
 * (micrometer-observation; micrometer-core for a {@code MeterRegistry}).
 */
public final class Observability {
    private final ObservationRegistry observations;
    private final MeterRegistry meters;

    private Observability(ObservationRegistry observations, MeterRegistry meters) {
        this.observations = observations;
        this.meters = meters;
    }

    /** Every call observed in {@code registry}. */
    public static Observability observations(ObservationRegistry registry) {
        return new Observability(java.util.Objects.requireNonNull(registry, "observation registry"), null);
    }

    /** Every call timed in {@code registry}. */
    public static Observability meters(MeterRegistry registry) {
        return new Observability(null, java.util.Objects.requireNonNull(registry, "meter registry"));
    }

    /** Either may be null, not both. */
    public static Observability of(ObservationRegistry observations, MeterRegistry meters) {
        if (observations == null && meters == null) {
            throw new IllegalArgumentException("observability: neither an observation nor a meter registry");
        }
        return new Observability(observations, meters);
    }

    /**
     * The filters that observe calls (none when the registries would record nothing), the gauges and counters of
     * what the Ferry runs (in the meter registry, if any), and the scrape the admin port serves at {@code /metrics}
     * (where the meter registry is, or holds, Prometheus's), and the calls' totals its page shows (where there is a
     * meter registry).
     */
    Observed parts() {
        return new Observed(MicrometerInstrumentation.create(observations, meters),
                meters == null ? RuntimeMeters.NONE : FerryMeters.create(meters),
                meters == null ? null : MicrometerInstrumentation.prometheus(meters),
                meters == null ? null : MicrometerInstrumentation.callTotals(meters));
    }

    /**
     * A Prometheus registry of Ferry's own ({@code metrics=prometheus} in a file): the parts of
     * {@code meters(registry)}, the registry closed with the Ferry.
     */
    static Observed ownPrometheus() {
        OwnPrometheus own = new OwnPrometheus();
        try {
            return meters(own.registry()).parts().owning(own);
        } catch (RuntimeException | Error e) {
            own.close();
            throw e;
        }
    }

    @Override
    public String toString() {
        return "Observability[" + (observations == null ? "" : "observations")
                + (observations != null && meters != null ? ", " : "") + (meters == null ? "" : "meters") + "]";
    }
}
