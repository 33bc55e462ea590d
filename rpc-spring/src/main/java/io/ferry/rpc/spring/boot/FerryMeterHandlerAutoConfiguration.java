package io.ferry.rpc.spring.boot;

import io.ferry.rpc.config.Ferry;
import io.ferry.rpc.config.observation.RpcMeterObservationHandler;
import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnSingleCandidate;
import org.springframework.context.annotation.Bean;
import org.springframework.core.annotation.Order;

/**
 * Ferry's calls timed by {@link RpcMeterObservationHandler}, ordered first among the meter observation handlers: Boot
 * 4 groups every {@code MeterObservationHandler} bean, in their order, into one first-match composite, so Ferry's
 * calls get the timers Boot's default handler would make, looked up once per method and outcome, and every other
 * observation goes on to Boot's default handler.
 *
 * <p>Ferry's handler times under Ferry's tags only: key values added to every observation
 * ({@code management.observations.key-values.*}, an {@code ObservationFilter}) or an {@code ObservationConvention} for
 * Ferry's contexts do not reach its timers ({@code management.metrics.tags.*} does: it tags every meter). Exclude this
 * auto-configuration to have Boot's default handler time Ferry's calls too. Only on Boot 4's grouping
 * ({@code ObservationHandlerGroup}): Boot 3.5 makes its default meter handler only when no other exists, so a
 * handler of Ferry's there would take the timers from every other observation.
 */
@AutoConfiguration(after = FerryObservabilityAutoConfiguration.class, afterName = {
        "org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration",
        "org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration"})
@ConditionalOnClass(value = {Ferry.class, MeterRegistry.class},
        name = "org.springframework.boot.micrometer.observation.autoconfigure.ObservationHandlerGroup")
public class FerryMeterHandlerAutoConfiguration {
    @Bean
    @Order(0)
    @ConditionalOnSingleCandidate(MeterRegistry.class)
    @ConditionalOnMissingBean
    RpcMeterObservationHandler ferryMeterObservationHandler(MeterRegistry meters) {
        return new RpcMeterObservationHandler(meters);
    }
}
