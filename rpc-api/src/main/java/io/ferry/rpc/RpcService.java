package io.ferry.rpc;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/** Marks a service interface and gives its defaults; providers and references may override each. */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
public @interface RpcService {
    /** Service version; empty for none (sent as "0.0.0", as Dubbo does). */
    String version() default "";

    /** Service group; empty for none. */
    String group() default "";

    /** Default timeout of every call in milliseconds; 0 keeps the consumer's default (1000 ms). */
    long timeoutMillis() default 0;
}
