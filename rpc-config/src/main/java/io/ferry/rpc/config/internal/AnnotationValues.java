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

    /** What {@code @RpcMethod} sets (timeout, callers, and oneway or idempotent when true), as method settings. */
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
            if (!annotation.callers().isEmpty()) {
                s.put(Options.CALLERS, Options.CALLERS.check(annotation.callers(), "@RpcMethod(callers) on "
                        + method.getDeclaringClass().getName() + "." + method.getName(), "callers"), where);
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

    /**
     * What {@code @RpcExport} on {@code implementation} sets (version, group, token, callers, weight, warm-up,
     * timeout, retries, loadbalance, cluster, executes, actives, accesslog, filter), as settings of its service;
     * empty when the class is not annotated. Each value is checked as a builder checks it, the message naming the
     * annotation's element and the class.
     */
    public static Settings exportSettings(Class<?> implementation) {
        Settings s = new Settings();
        io.ferry.rpc.RpcExport export = implementation.getAnnotation(io.ferry.rpc.RpcExport.class);
        if (export == null) {
            return s;
        }
        Values v = new Values(s, "@RpcExport", implementation.getName());
        v.text(Options.VERSION, "version", export.version());
        v.text(Options.GROUP, "group", export.group());
        v.text(Options.TOKEN, "token", export.token());
        v.text(Options.CALLERS, "callers", export.callers());
        v.number(Options.WEIGHT, "weight", export.weight(), -1);
        if (export.warmupMillis() != -1) {
            v.put(Options.WARMUP, "warmupMillis", Duration.ofMillis(export.warmupMillis()));
        }
        if (export.timeoutMillis() != 0) {
            v.put(Options.TIMEOUT, "timeoutMillis", Duration.ofMillis(export.timeoutMillis()));
        }
        v.number(Options.RETRIES, "retries", export.retries(), -1);
        v.text(Options.LOAD_BALANCE, "loadbalance", export.loadbalance());
        v.text(Options.CLUSTER, "cluster", export.cluster());
        v.number(Options.EXECUTES, "executes", export.executes(), -1);
        v.number(Options.ACTIVES, "actives", export.actives(), -1);
        v.text(Options.ACCESS_LOG, "accesslog", export.accesslog());
        v.text(Options.FILTER, "filter", String.join(",", export.filter()));
        return s;
    }

    /**
     * What {@code @RpcReference} sets among the options a reference shares with its consumer (check, retries,
     * loadbalance, cluster, lazy, async, filter, actives, mock, stub, sslEnabled), as settings of the reference; what
     * it leaves empty (or -1) is not set, so the interface's and the consumer's apply.
     *
     * @param where how messages name the annotated element: {@code com.acme.Shop.greeter}
     * @throws IllegalArgumentException naming the annotation's element, {@code where} and the value
     */
    public static Settings referenceSettings(RpcReference annotation, String where) {
        Settings s = new Settings();
        Values v = new Values(s, "@RpcReference", where);
        v.flag(Options.CHECK, "check", annotation.check());
        v.number(Options.RETRIES, "retries", annotation.retries(), -1);
        v.text(Options.LOAD_BALANCE, "loadbalance", annotation.loadbalance());
        v.text(Options.CLUSTER, "cluster", annotation.cluster());
        v.flag(Options.LAZY, "lazy", annotation.lazy());
        v.flag(Options.ASYNC, "async", annotation.async());
        v.text(Options.FILTER, "filter", String.join(",", annotation.filter()));
        v.number(Options.ACTIVES, "actives", annotation.actives(), -1);
        v.text(Options.MOCK, "mock", annotation.mock());
        v.text(Options.STUB, "stub", annotation.stub());
        v.flag(Options.SSL_ENABLED, "sslEnabled", annotation.sslEnabled());
        return s;
    }

    /**
     * An {@code @RpcReference(id)}: null when empty; else the id, which must be a name a properties key can hold
     * ({@code ferry.reference.<id>.*}).
     */
    public static String referenceId(RpcReference annotation, String where) {
        String id = annotation.id();
        if (id.isEmpty()) {
            return null;
        }
        if (!id.matches("[A-Za-z0-9_$-]+")) {
            throw new IllegalArgumentException("@RpcReference(id) on " + where + ": '" + id + "' (expected: letters, "
                    + "digits, '_', '-' or '$', as a key ferry.reference.<id>.timeout can hold)");
        }
        return id;
    }

    /** Puts an annotation's set elements into settings, checking each and naming it in messages. */
    private record Values(Settings settings, String annotation, String on) {
        private String where() {
            return annotation + " on " + on;
        }

        <T> void put(io.ferry.rpc.option.Option<T> option, String element, T value) {
            settings.put(option, option.check(value, annotation + "(" + element + ") on " + on, element), where());
        }

        void text(io.ferry.rpc.option.Option<String> option, String element, String value) {
            if (!value.isEmpty()) {
                put(option, element, value);
            }
        }

        void number(io.ferry.rpc.option.Option<Integer> option, String element, int value, int unset) {
            if (value != unset) {
                put(option, element, value);
            }
        }

        /** Java annotations cannot say null: "" keeps, "true" and "false" set. */
        void flag(io.ferry.rpc.option.Option<Boolean> option, String element, String value) {
            switch (value) {
                case "" -> { }
                case "true" -> put(option, element, true);
                case "false" -> put(option, element, false);
                default -> throw new IllegalArgumentException(annotation + "(" + element + ") on " + on + ": '"
                        + value + "' (expected: \"true\", \"false\", or \"\" to keep the consumer's)");
            }
        }
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
