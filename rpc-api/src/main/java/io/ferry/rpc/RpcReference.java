package io.ferry.rpc;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a field into which the bootstrap injects a reference (a proxy) to a remote service; with Spring, also a
 * constructor or method parameter that the context resolves to one: Dubbo's {@code @DubboReference}. Its elements
 * take Dubbo's names and meanings, except durations, which say their unit ({@code timeoutMillis} for Dubbo's
 * {@code timeout}). An element left at its default (empty, or -1 where 0 means something) is not set, so the
 * interface's {@link RpcService}, the consumer's defaults and then the providers' URL values apply. Dubbo's boolean
 * elements ({@code check}, {@code lazy}, {@code async}, {@code sslEnabled}) are strings here, {@code "true"},
 * {@code "false"} or empty, since an annotation cannot say "not set" with a boolean; any other value fails naming
 * the element. Per-method settings go on the interface's methods ({@link RpcMethod}), or in keys
 * {@code ferry.reference.<id>.method.<name>.*} of a reference given an {@link #id()}: Dubbo's
 * {@code methods = @Method(...)} has no counterpart.
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

    /**
     * Dubbo's {@code check}: {@code "true"} for a ready provider before the reference is used (at its creation, or
     * with Spring once the context has started and exported its own services), {@code "false"} for none; empty keeps
     * the consumer's (true by default).
     */
    String check() default "";

    /** Dubbo's {@code retries}, 0 and up; -1 keeps the interface's, the consumer's or the providers'. */
    int retries() default -1;

    /**
     * Dubbo's {@code loadbalance}: a balancer by name ({@code adaptive}, {@code random}, {@code roundrobin},
     * {@code leastactive}, ...); empty keeps the consumer's or the providers'.
     */
    String loadbalance() default "";

    /** Dubbo's {@code cluster}: {@code failover}, {@code failfast}, ... by name; empty keeps the consumer's. */
    String cluster() default "";

    /** Dubbo's {@code lazy}: {@code "true"} connects on the first call; empty keeps the consumer's. */
    String lazy() default "";

    /**
     * Dubbo's {@code async}: {@code "true"} makes calls return at once, their outcome in
     * {@code RpcContext.current().future()}; empty keeps the consumer's.
     */
    String async() default "";

    /**
     * Dubbo's {@code filter}: filters by name, in order, after the consumer's ({@code "-default"} drops the default
     * ones); empty keeps the consumer's. Several names may also be one comma-separated string.
     */
    String[] filter() default {};

    /** Dubbo's {@code actives}: most calls in flight per method; 0 for no limit, -1 keeps the consumer's. */
    int actives() default -1;

    /**
     * Dubbo's {@code ssl-enabled} on a reference: {@code "true"} reaches every provider of it with TLS, whatever its
     * registry URL says (so that whoever can write the registry cannot have it speak plain text); {@code "false"}
     * uses TLS only for providers registered as speaking it; empty keeps the consumer's.
     */
    String sslEnabled() default "";

    /**
     * Dubbo's {@code id}: names this reference, so that keys {@code ferry.reference.<id>.*} of {@code -D} and the
     * class path's {@code ferry.properties} set its options and its methods' ({@code
     * ferry.reference.<id>.method.sayHello.timeout}) over the annotation's; empty for none.
     */
    String id() default "";
}
