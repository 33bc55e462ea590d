package io.ferry.rpc;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks an implementation class to be exported by the bootstrap: Dubbo's {@code @DubboService}. Its elements take
 * Dubbo's names and meanings, except durations, which say their unit ({@code timeoutMillis} for Dubbo's
 * {@code timeout}, {@code warmupMillis} for {@code warmup}), as every Ferry annotation does. An element left at its
 * default (empty, or -1 where 0 means something) is not set: the interface's {@link RpcService}, then the provider's
 * defaults (a file's {@code <provider>}, {@code ferry.provider.*}) apply. Per-method settings go on the interface's
 * methods ({@link RpcMethod}) or in a file ({@code ferry.service.<interface>.<method>.*}), not here: Dubbo's
 * {@code methods = @Method(...)} has no counterpart. A file's or {@code -D}'s {@code ferry.service.<interface>.*}
 * keys win over these values.
 */
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

    /**
     * Dubbo's {@code timeout} in milliseconds: the provider's budget for one call, and its consumers' default deadline
     * (through the registry URL); 0 keeps the interface's or the provider's.
     */
    long timeoutMillis() default 0;

    /**
     * Dubbo's {@code retries}: its consumers' default (through the registry URL), 0 and up; -1 keeps the provider's.
     */
    int retries() default -1;

    /**
     * Dubbo's {@code loadbalance}: its consumers' default balancer by name ({@code random}, {@code roundrobin},
     * {@code leastactive}, {@code adaptive}, ...), through the registry URL; empty keeps the provider's.
     */
    String loadbalance() default "";

    /**
     * Dubbo's {@code cluster}, by name, written into the registry URL as Dubbo writes it; empty keeps the provider's.
     */
    String cluster() default "";

    /**
     * Dubbo's {@code executes}: most calls of each method running at once, more are answered LIMIT_EXCEEDED; 0 for no
     * limit, -1 keeps the provider's.
     */
    int executes() default -1;

    /** Dubbo's {@code actives}: its consumers' default limit of calls in flight per method; -1 keeps the provider's. */
    int actives() default -1;

    /**
     * Dubbo's {@code accesslog}: {@code "true"} logs each call to the logger {@code ferry.accesslog}, {@code "false"}
     * none, any other value is a file; empty keeps the protocol's.
     */
    String accesslog() default "";

    /**
     * Dubbo's {@code filter}: filters by name, in order, after the default ones ({@code "-default"} drops those,
     * {@code "-name"} one of them); empty keeps the provider's. Several names may also be one comma-separated string.
     */
    String[] filter() default {};
}
