package io.ferry.rpc.config.internal.observation;

import java.lang.reflect.Method;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.function.BiFunction;

/**
 * Values made once per service and method (tags, timers) and then found by the call's {@link Method} alone. One
 * method can stand for several services: a generic reference calls every service through
 * {@code GenericService.$invoke}, and two references can give one interface different service names. The first
 * service seen for a method takes the fast lookup; the others are kept by service and method.
 *
 * @param <T> the value
 */
final class PerServiceMethod<T> {
    private final BiFunction<String, Method, T> make;
    private final ConcurrentMap<Method, First<T>> byMethod = new ConcurrentHashMap<>();
    private final ConcurrentMap<Key, T> others = new ConcurrentHashMap<>();

    PerServiceMethod(BiFunction<String, Method, T> make) {
        this.make = make;
    }

    T get(String service, Method method) {
        First<T> first = byMethod.get(method);
        if (first == null) {
            first = byMethod.computeIfAbsent(method, m -> new First<>(service, make.apply(service, m)));
        }
        if (first.service.equals(service)) {
            return first.value;
        }
        return others.computeIfAbsent(new Key(service, method), key -> make.apply(key.service, key.method));
    }

    private record First<T>(String service, T value) {
    }

    private record Key(String service, Method method) {
    }
}
