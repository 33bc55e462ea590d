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
}
