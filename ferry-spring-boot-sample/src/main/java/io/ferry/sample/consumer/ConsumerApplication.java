package io.ferry.sample.consumer;

import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/** The consumer: a web endpoint, {@code GET /greet?name=...}, that calls the provider's {@code Greeter}. */
@SpringBootApplication
public class ConsumerApplication {
    public static void main(String[] args) {
        run(args);
    }

    /** Reads {@code consumer.properties} (this module holds two applications, each with its own file). */
    public static ConfigurableApplicationContext run(String... args) {
        return new SpringApplicationBuilder(ConsumerApplication.class).properties("spring.config.name=consumer")
                .run(args);
    }
}
