package io.ferry.rpc.config.internal;

import io.ferry.rpc.RpcMethod;
import io.ferry.rpc.config.option.Options;
import io.ferry.rpc.config.option.Settings;
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

    /** What {@code @RpcService} on the interface sets (timeout, version, group), as settings of its scope. */
    public static Settings serviceSettings(Class<?> serviceInterface) {
        Settings s = new Settings();
        RpcService service = serviceInterface.getAnnotation(RpcService.class);
        if (service != null) {
            String where = "@RpcService on " + serviceInterface.getName();
            Duration timeout = timeout(serviceInterface);
            if (timeout != null) {
                s.put(Options.TIMEOUT, timeout, where);
            }
            if (!service.version().isEmpty()) {
                s.put(Options.VERSION, service.version(), where);
            }
            if (!service.group().isEmpty()) {
                s.put(Options.GROUP, service.group(), where);
            }
        }
        return s;
    }

    /** What {@code @RpcMethod} sets (timeout, and oneway or idempotent when true), as method settings. */
    public static Settings methodSettings(Method method) {
        Settings s = new Settings();
        RpcMethod annotation = method.getAnnotation(RpcMethod.class);
        if (annotation != null) {
            String where = "@RpcMethod on " + method.getDeclaringClass().getName() + "." + method.getName();
            Duration timeout = timeout(method);
            if (timeout != null) {
                s.put(Options.TIMEOUT, timeout, where);
            }
            if (annotation.oneway()) {
                s.put(Options.ONEWAY, true, where);
            }
            if (annotation.idempotent()) {
                s.put(Options.IDEMPOTENT, true, where);
            }
        }
        return s;
    }

    /** The reference field's timeout, or null when it sets none. */
    public static Duration timeout(Field field, RpcReference annotation) {
        return timeout(annotation, where(field));
    }

    /** The timeout of a reference annotated on {@code where} (a field, a parameter), or null when it sets none. */
    public static Duration timeout(RpcReference annotation, String where) {
        return millis(annotation.timeoutMillis(), "@RpcReference(timeoutMillis) on " + where);
    }

    /** The reference field's connections, or null when it sets none. */
    public static Integer connections(Field field, RpcReference annotation) {
        return connections(annotation, where(field));
    }

    /** The connections of a reference annotated on {@code where}, or null when it sets none. */
    public static Integer connections(RpcReference annotation, String where) {
        return annotation.connections() == 0 ? null : Options.CONNECTIONS.check(annotation.connections(),
                "@RpcReference(connections) on " + where);
    }

    private static Duration millis(long millis, String where) {
        return millis == 0 ? null : Options.TIMEOUT.check(Duration.ofMillis(millis), where);
    }

    private static String where(Field field) {
        return field.getDeclaringClass().getName() + "." + field.getName();
    }

    /**
     * The service interface of an {@link io.ferry.rpc.RpcExport} class: the one it names, else its only interface.
     *
     * @throws IllegalArgumentException when the class is not annotated, or implements several interfaces and names
     *                                  none
     */
    public static Class<?> exportedInterface(Class<?> implementation) {
        io.ferry.rpc.RpcExport export = implementation.getAnnotation(io.ferry.rpc.RpcExport.class);
        if (export == null) {
            throw new IllegalArgumentException("implementation: " + implementation.getName()
                    + " (expected: a class annotated @RpcExport)");
        }
        if (export.value() != void.class) {
            return export.value();
        }
        Class<?>[] interfaces = implementation.getInterfaces();
        if (interfaces.length != 1) {
            throw new IllegalArgumentException("@RpcExport on " + implementation.getName() + ": it implements "
                    + interfaces.length + " interfaces (expected: name the service interface in @RpcExport(value))");
        }
        return interfaces[0];
    }
}
