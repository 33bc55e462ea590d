package io.ferry.rpc;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a field into which the bootstrap injects a reference (a proxy) to a remote service; with Spring, also a
 * constructor or method parameter that the context resolves to one.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.FIELD, ElementType.PARAMETER})
public @interface RpcReference {
    /** A direct provider address, {@code dubbo://host:port}; empty uses the bootstrap's default url. */
    String url() default "";

    /** Overrides the interface's version; empty keeps it. */
    String version() default "";

    /** Overrides the interface's group; empty keeps it. */
    String group() default "";

    /** Timeout of every call in milliseconds; 0 keeps the interface's or the consumer's default. */
    long timeoutMillis() default 0;

    /** Connections of this reference's own per provider; 0 shares the process-wide connection. */
    int connections() default 0;

    /**
     * Dubbo's {@code mock}: what answers a call that failed with a framework error ({@code "return null"},
     * {@code "throw"}, {@code "force:return empty"}, {@code "true"} for the interface's {@code XxxMock}, ...; the
     * README's "mock and stub"); empty keeps the consumer's.
     */
    String mock() default "";

    /**
     * Dubbo's {@code stub}: {@code "true"} for the interface's {@code XxxStub} class, or a class name, made around
     * the reference with a constructor taking it; empty keeps the consumer's.
     */
    String stub() default "";

    /**
     * For a {@link GenericService} field, required: the name of the service interface it calls, which need not be on
     * the class path (Dubbo's {@code interfaceName} with {@code generic = true}); empty for any other field.
     */
    String interfaceName() default "";
}
