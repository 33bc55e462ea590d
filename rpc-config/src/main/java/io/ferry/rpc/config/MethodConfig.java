package io.ferry.rpc.config;

import io.ferry.rpc.remoting.Validate;

import java.time.Duration;

/**
 * Settings of one method of a reference, by method name (they apply to every overload of that name).
 *
 * @param name    the method name
 * @param timeout null keeps the reference's
 * @param oneway  null keeps the annotation's; true sends without waiting for an answer (void methods only)
 */
public record MethodConfig(String name, Duration timeout, Boolean oneway) {
    public MethodConfig {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("method.name: '" + name + "' (expected: a method name)");
        }
        if (timeout != null) {
            Validate.positive("method " + name + " timeout", timeout);
        }
    }

    public static MethodConfig timeout(String name, Duration timeout) {
        return new MethodConfig(name, timeout, null);
    }

    public static MethodConfig oneway(String name) {
        return new MethodConfig(name, null, Boolean.TRUE);
    }
}
