package io.ferry.rpc.config.internal.observation;

import io.ferry.rpc.Filter;
import io.ferry.rpc.config.internal.Instrumentation;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.observation.DefaultMeterObservationHandler;
import io.micrometer.observation.ObservationRegistry;

/**
 * Calls observed through Micrometer's Observation API: the application's registry when it gives one (its handlers
 * decide what becomes of an observation: timers, spans, logs), else one of Ferry's own that turns observations into
 * timers in the application's meter registry.
 */
public final class MicrometerInstrumentation implements Instrumentation {
    private final ObservationRegistry registry;
    private final InstrumentationGuard guard = new InstrumentationGuard();
    private final ClientObservationFilter client;
    private final ServerObservationFilter server;

    private MicrometerInstrumentation(ObservationRegistry registry) {
        this.registry = registry;
        this.client = new ClientObservationFilter(registry, new RpcConventions.Client(), guard);
        this.server = new ServerObservationFilter(registry, new RpcConventions.Server(), guard);
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
        if (meters == null) {
            return null;
        }
        ObservationRegistry own = ObservationRegistry.create();
        own.observationConfig().observationHandler(new DefaultMeterObservationHandler(meters));
        return new MicrometerInstrumentation(own);
    }

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
