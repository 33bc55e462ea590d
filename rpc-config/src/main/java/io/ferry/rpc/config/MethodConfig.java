package io.ferry.rpc.config;

import io.ferry.rpc.remoting.Validate;

import java.time.Duration;

/**
 * Settings of one method of a reference, by method name (they apply to every overload of that name).
 *
 * @param name    the method name
 * @param timeout null keeps the reference's
 * @param oneway     null keeps the annotation's; true sends without waiting for an answer (void methods only)
 * @param idempotent null keeps the annotation's; true lets failover repeat a call whose connection was lost
 *                   mid-call (it may have run once already)
 */
public record MethodConfig(String name, Duration timeout, Boolean oneway, Boolean idempotent) {
    public MethodConfig(String name, Duration timeout, Boolean oneway) {
        this(name, timeout, oneway, null);
    }

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

    public static MethodConfig idempotent(String name) {
        return new MethodConfig(name, null, null, Boolean.TRUE);
    }
}
