package io.ferry.rpc.remoting.internal.service;

import io.ferry.rpc.Invoker;

import java.time.Duration;
import java.util.Map;

/**
 * One exported service: its schema, the version and group consumers ask for, the invoker that runs calls, and the
 * provider-side timeouts (a call running longer is reported as slow; its answer still goes out).
 *
 * @param version        "" or "0.0.0" for none
 * @param group          "" for none
 * @param timeout        the service's timeout, or null for none
 * @param methodTimeouts per method name, overriding {@code timeout}
 */
public record ProviderService(ServiceSchema schema, String version, String group, Invoker invoker, Duration timeout,
                              Map<String, Duration> methodTimeouts) {

    public ProviderService {
        methodTimeouts = Map.copyOf(methodTimeouts);
    }

    public ProviderService(ServiceSchema schema, String version, String group, Invoker invoker) {
        this(schema, version, group, invoker, null, Map.of());
    }

    /** The provider-side timeout of a method in nanoseconds, or 0 for none. */
    public long timeoutNanos(String method) {
        Duration t = methodTimeouts.getOrDefault(method, timeout);
        return t == null ? 0 : t.toNanos();
    }
}
