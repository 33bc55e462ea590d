package io.ferry.rpc.spring.boot;

import io.ferry.rpc.config.Ferry;
import io.ferry.rpc.spring.FerryLifecycle;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.annotation.Bean;

/**
 * The {@code ferry} health indicator ({@link FerryHealthIndicator}), when Boot's health module is present (Actuator
 * brings it); {@code management.health.ferry.enabled=false} turns it off.
 */
@AutoConfiguration(after = FerryAutoConfiguration.class)
@ConditionalOnClass({Ferry.class, HealthIndicator.class})
@ConditionalOnEnabledHealthIndicator("ferry")
public class FerryHealthAutoConfiguration {
    @Bean
    @ConditionalOnMissingBean(name = "ferryHealthIndicator")
    FerryHealthIndicator ferryHealthIndicator(BeanFactory beans) {
        return new FerryHealthIndicator(() -> beans.getBean(FerryLifecycle.BEAN_NAME, FerryLifecycle.class)
                .ferry().status());
    }
}
