package io.ferry.sample.provider;

import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The provider: {@link GreeterService} exported through the registry of {@code provider.yml}. Its settings are a
 * Dubbo application's {@code dubbo.*} keys renamed {@code ferry.*}.
 */
@SpringBootApplication
public class ProviderApplication {
    public static void main(String[] args) {
        run(args);
    }

    /** Reads {@code provider.yml} (this module holds two applications, each with its own file). */
    public static ConfigurableApplicationContext run(String... args) {
        return new SpringApplicationBuilder(ProviderApplication.class).properties("spring.config.name=provider")
                .run(args);
    }
}
