package io.ferry.rpc.config.option;

import io.ferry.rpc.RpcMethod;
import io.ferry.rpc.RpcReference;
import io.ferry.rpc.RpcService;

import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.time.Duration;

/**
 * Reads the annotations' values through the option table: 0 means "not set" (a Java annotation cannot say null),
 * and any other value is checked like a builder's, with the annotation and where it sits in the message, so that
 * {@code @RpcService(timeoutMillis = -5)} fails at export or reference time instead of falling back to a default.
 */
public final class AnnotationValues {
    private AnnotationValues() {
    }

    /** The service's timeout, or null when the interface sets none. */
    public static Duration timeout(Class<?> serviceInterface) {
        RpcService service = serviceInterface.getAnnotation(RpcService.class);
        return service == null ? null
                : millis(service.timeoutMillis(), "@RpcService(timeoutMillis) on " + serviceInterface.getName());
    }

    /** The method's timeout, or null when it sets none. */
    public static Duration timeout(Method method) {
        RpcMethod annotation = method.getAnnotation(RpcMethod.class);
        return annotation == null ? null : millis(annotation.timeoutMillis(), "@RpcMethod(timeoutMillis) on "
                + method.getDeclaringClass().getName() + "." + method.getName());
    }

    /** The reference field's timeout, or null when it sets none. */
    public static Duration timeout(Field field, RpcReference annotation) {
        return millis(annotation.timeoutMillis(), "@RpcReference(timeoutMillis) on " + where(field));
    }

    /** The reference field's connections, or null when it sets none. */
    public static Integer connections(Field field, RpcReference annotation) {
        return annotation.connections() == 0 ? null : Options.CONNECTIONS.check(annotation.connections(),
                "@RpcReference(connections) on " + where(field));
    }

    private static Duration millis(long millis, String where) {
        return millis == 0 ? null : Options.TIMEOUT.check(Duration.ofMillis(millis), where);
    }

    private static String where(Field field) {
        return field.getDeclaringClass().getName() + "." + field.getName();
    }
}
