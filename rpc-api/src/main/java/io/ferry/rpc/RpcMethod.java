package io.ferry.rpc;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/** Per-method settings on a service interface method. */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface RpcMethod {
    /** Timeout of this method in milliseconds; 0 keeps the service's. */
    long timeoutMillis() default 0;

    /**
     * One-way: the consumer sends the request and does not wait for an answer; the call completes when the frame
     * is written. The method must return {@code void}. Errors on the provider are not reported back.
     */
    boolean oneway() default false;

    /**
     * True when running the method twice does no harm (a read, a put of the same value): failover may then repeat a
     * call whose connection was lost mid-call, although it may have run once. Default false: only calls that
     * provably did not run are moved to another provider.
     */
    boolean idempotent() default false;

    /**
     * Who may call this method, by the identity a client certificate proved over mutual TLS: the {@code callers}
     * option's comma-separated patterns ({@code cn:NAME}, {@code dns:NAME}, {@code uri:URI}, {@code ip:ADDRESS},
     * {@code *}). It holds wherever the interface is exported, unless the export names the method's callers itself
     * (a file's or builder's method settings win over the annotation); empty keeps the service's. Consumers ignore it.
     */
    String callers() default "";
}
