package io.ferry.rpc.spring.boot;

import io.ferry.rpc.config.Ferry;
import io.ferry.rpc.spring.FerryDeclaration;
import io.ferry.rpc.spring.FerryRegistrar;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.Environment;

/**
 * Ferry in a Spring Boot application: the {@code ferry.*} properties of its environment declared to Ferry (bean
 * {@code ferryProperties}, see {@link BootProperties}), and the beans {@link io.ferry.rpc.spring.EnableFerry} gives a
 * plain Spring context: the {@link Ferry} bean, built when first wanted, {@code @RpcExport} beans exported once the
 * application has started, {@code @RpcReference} fields and parameters injected, and the Ferry unregistered,
 * drained and closed in the application's graceful shutdown.
 */
@AutoConfiguration
@ConditionalOnClass(Ferry.class)
@Import(FerryRegistrar.class)
public class FerryAutoConfiguration {
    /** The bean's name: replace it, or add other {@link FerryDeclaration} beans beside it. */
    public static final String PROPERTIES = "ferryProperties";

    /** {@code ferry.scan.base-packages}: {@code @RpcExport} classes as beans, see {@link RpcExportScan}. */
    @Bean
    static RpcExportScan ferryExportScan(Environment environment) {
        return new RpcExportScan(environment);
    }

    /** {@code ferry.reference.<id>.*}: each reference a bean of its interface's type, see {@link PropertyReferences}. */
    @Bean
    static PropertyReferences ferryPropertyReferences(ConfigurableEnvironment environment) {
        return new PropertyReferences(environment);
    }

    @Bean(PROPERTIES)
    @ConditionalOnMissingBean(name = PROPERTIES)
    FerryDeclaration ferryProperties(ConfigurableEnvironment environment) {
        return new BootProperties(environment);
    }
}
