package io.ferry.rpc.config.internal.observation;

import io.ferry.rpc.Filter;
import io.ferry.rpc.config.internal.CallTotals;
import io.ferry.rpc.config.internal.Instrumentation;
import io.ferry.rpc.config.internal.MetricsScrape;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.observation.ObservationRegistry;

/**
 * Calls observed through Micrometer: through the application's observation registry when it gives one (its
 * handlers decide what becomes of an observation: timers, spans, logs), else timed straight into its meter registry
 * under the same names and tags.
 */
public final class MicrometerInstrumentation implements Instrumentation {
    private final ObservationRegistry registry;
    private final Filter client;
    private final Filter server;

    private MicrometerInstrumentation(ObservationRegistry registry) {
        InstrumentationGuard guard = new InstrumentationGuard();
        this.registry = registry;
        this.client = new ClientObservationFilter(new CallObservations<>(registry, RpcConventions.client(), guard));
        this.server = new ServerObservationFilter(new CallObservations<>(registry, RpcConventions.server(), guard));
    }

    private MicrometerInstrumentation(MeterRegistry meters) {
        this.registry = null;
        this.client = new TimingFilter(CallTimers.client(meters), true);
        this.server = new TimingFilter(CallTimers.server(meters), false);
    }

    /**
     * @param observations the application's observation registry, or null
     * @param meters       where call timers go when {@code observations} is null; may be null beside it
     * @return the instrumentation, or null when neither registry would record anything
     */
    public static Instrumentation create(ObservationRegistry observations, MeterRegistry meters) {
        if (observations != null) {
            if (observations.isNoop()) {
                return null;
            }
            TracingCheck.warnIfBroken();
            return new MicrometerInstrumentation(observations);
        }
        return meters == null ? null : new MicrometerInstrumentation(meters);
    }

    /** The scrape of the Prometheus registry among {@code meters}, or null when none is. */
    public static MetricsScrape prometheus(MeterRegistry meters) {
        return PrometheusScrape.find(meters);
    }

    /** The calls' timers in {@code meters}, summed per side, service and method. */
    public static CallTotals callTotals(MeterRegistry meters) {
        return new TimerTotals(meters);
    }

    /** The observation registry calls are observed in; null where they are timed straight into meters. */
    ObservationRegistry registry() {
        return registry;
    }

    @Override
    public Filter consumerFilter() {
        return client;
    }

    @Override
    public Filter providerFilter() {
        return server;
    }
}
