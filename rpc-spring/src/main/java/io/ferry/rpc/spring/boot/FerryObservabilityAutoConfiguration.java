package io.ferry.rpc.spring.boot;

import io.ferry.rpc.config.Ferry;
import io.ferry.rpc.config.Observability;
import io.ferry.rpc.spring.FerryCustomizer;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.observation.ObservationRegistry;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * Ferry's calls and meters in the application's Micrometer registries, when it has them (Actuator makes both): a
 * {@link FerryCustomizer} named {@code ferryObservability} hands Ferry the {@code ObservationRegistry} and the
 * {@code MeterRegistry} beans, so that {@code rpc.client.duration}, {@code rpc.server.duration} and Ferry's gauges
 * show on {@code /actuator/metrics} and {@code /actuator/prometheus}, and calls make spans where a tracing bridge is
 * configured. Either registry may be missing; with neither, Ferry observes nothing and pays nothing.
 * The calls' timers come from the observation registry's meter handler: see
 * {@link FerryMeterHandlerAutoConfiguration} for Ferry's own.
 */
@AutoConfiguration(after = FerryAutoConfiguration.class)
@ConditionalOnClass({Ferry.class, MeterRegistry.class, ObservationRegistry.class})
public class FerryObservabilityAutoConfiguration {
    @Bean
    @ConditionalOnMissingBean(name = "ferryObservability")
    FerryCustomizer ferryObservability(ObjectProvider<ObservationRegistry> observations,
                                       ObjectProvider<MeterRegistry> meters) {
        return builder -> {
            ObservationRegistry observationRegistry = observations.getIfUnique();
            MeterRegistry meterRegistry = meters.getIfUnique();
            if (observationRegistry != null || meterRegistry != null) {
                builder.observability(Observability.of(observationRegistry, meterRegistry));
            }
        };
    }
}
