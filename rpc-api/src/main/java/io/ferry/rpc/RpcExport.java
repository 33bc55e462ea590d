package io.ferry.rpc;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/** Marks an implementation class to be exported by the bootstrap. */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
public @interface RpcExport {
    /** The service interface; may be left out when the class implements exactly one interface. */
    Class<?> value() default void.class;

    /** Overrides the interface's version; empty keeps it. */
    String version() default "";

    /** Overrides the interface's group; empty keeps it. */
    String group() default "";

    /**
     * Dubbo's {@code token} for this service: {@code "true"} for a random one per export, {@code "false"} for none;
     * empty keeps the provider's default. A fixed token written here is compiled into the class for anyone who has
     * the jar to read: set one in a file or {@code -D} instead.
     */
    String token() default "";

    /**
     * Who may call this service, by the identity their client certificate proved on a mutual-TLS connection:
     * {@code cn:NAME}, {@code dns:NAME}, {@code uri:URI}, {@code ip:ADDRESS} or {@code *}, comma-separated; empty
     * keeps the provider's default (anyone). Others are refused FORBIDDEN, not run.
     */
    String callers() default "";

    /**
     * Dubbo's {@code weight} of this provider among the service's providers (0 and up), carried to consumers in
     * its registry URL; -1 keeps the provider's default (100).
     */
    int weight() default -1;

    /**
     * Dubbo's {@code warmup} in milliseconds: how long after it registers this provider's weight ramps up; -1 keeps
     * the provider's default (10 minutes), 0 turns the ramp off.
     */
    long warmupMillis() default -1;
}
