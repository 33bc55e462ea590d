package io.ferry.rpc.spring;

import org.springframework.context.annotation.Import;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Ferry in a Spring context configured with Java, without Spring Boot (whose starter does this by itself): the
 * context's {@link io.ferry.rpc.config.Ferry} bean, beans of {@link io.ferry.rpc.RpcExport} classes exported once the
 * context has started, {@link io.ferry.rpc.RpcReference} fields and constructor or method parameters injected, and
 * the Ferry closed gracefully when the context stops. What the Ferry is comes from {@link FerryCustomizer} beans
 * (application, registry, protocol, consumer in code), {@link FerryDeclaration} beans, {@code ferry:} elements of
 * imported XML files, the class path's {@code ferry.properties} and {@code -D}.
 * <pre>{@code
 * @Configuration
 * @EnableFerry
 * class AppConfig {
 *     @Bean
 *     FerryCustomizer registry() {
 *         return builder -> builder.registry(RegistryConfig.of("zookeeper://zk1:2181"));
 *     }
 * }
 * }</pre>
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
@Import(FerryRegistrar.class)
public @interface EnableFerry {
}
