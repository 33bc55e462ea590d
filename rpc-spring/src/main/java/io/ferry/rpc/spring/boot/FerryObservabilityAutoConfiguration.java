package io.ferry.rpc.spring.boot;

import io.ferry.rpc.config.Ferry;
import io.ferry.rpc.config.Observability;
import io.ferry.rpc.config.observation.RpcMeterObservationHandler;
import io.ferry.rpc.spring.FerryCustomizer;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.observation.ObservationRegistry;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnSingleCandidate;
import org.springframework.context.annotation.Bean;
import org.springframework.core.annotation.Order;

/**
 * Ferry's calls and meters in the application's Micrometer registries, when it has them (Actuator makes both): a
 * {@link FerryCustomizer} named {@code ferryObservability} hands Ferry the {@code ObservationRegistry} and the
 * {@code MeterRegistry} beans, so that {@code rpc.client.duration}, {@code rpc.server.duration} and Ferry's gauges
 * show on {@code /actuator/metrics} and {@code /actuator/prometheus}, and calls make spans where a tracing bridge is
 * configured. Either registry may be missing; with neither, Ferry observes nothing and pays nothing.
 *
 * <p>With a {@code MeterRegistry}, an {@link RpcMeterObservationHandler} bean ordered first: Boot groups every
 * {@code MeterObservationHandler} bean, in their order, and the first that supports an observation handles it, so
 * Ferry's calls are timed into timers looked up once per method and outcome, and every other observation goes on to
 * Boot's default meter handler. An application that declares its own {@code RpcMeterObservationHandler} bean keeps
 * it; one that registers an {@code ObservationConvention} for Ferry's contexts should exclude this bean, since it
 * times under Ferry's own tags.
 */
@AutoConfiguration(after = FerryAutoConfiguration.class, afterName = {
        "org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration",
        "org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration"})
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

    @Bean
    @Order(0)
    @ConditionalOnSingleCandidate(MeterRegistry.class)
    @ConditionalOnMissingBean
    RpcMeterObservationHandler ferryMeterObservationHandler(MeterRegistry meters) {
        return new RpcMeterObservationHandler(meters);
    }
}
