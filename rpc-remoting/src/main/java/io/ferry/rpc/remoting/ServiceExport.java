package io.ferry.rpc.remoting;

import io.ferry.rpc.spi.Validate;
import io.ferry.rpc.ClassAllowList;
import io.ferry.rpc.Filter;
import io.ferry.rpc.Invoker;

import java.time.Duration;
import java.util.Map;

/**
 * One service a {@link Server} answers for.
 *
 * @param type           the service interface
 * @param version        "" or "0.0.0" for none
 * @param group          "" for none
 * @param invoker        runs the calls (the provider's filter chain around the implementation)
 * @param allowList      classes the service trusts beyond those reachable from its signatures
 * @param timeout        the provider-side budget of a call (a call running longer is reported), or null for none
 * @param methodTimeouts per method name, overriding {@code timeout}
 * @param pool           a business pool of the service's own, or null to share the provider's
 * @param front          a filter placed in front of the provider's own, or null for none: it sees every call that
 *                       reaches the service, those dropped because their caller's deadline passed included, and a
 *                       failure as the service's chain gave it, before it is made deliverable (Ferry's access log)
 */
public record ServiceExport(Class<?> type, String version, String group, Invoker invoker, ClassAllowList allowList,
                            Duration timeout, Map<String, Duration> methodTimeouts, PoolOptions pool, Filter front) {

    /** A service with nothing in front of the provider's own filters. */
    public ServiceExport(Class<?> type, String version, String group, Invoker invoker, ClassAllowList allowList,
                         Duration timeout, Map<String, Duration> methodTimeouts, PoolOptions pool) {
        this(type, version, group, invoker, allowList, timeout, methodTimeouts, pool, null);
    }

    /** A service on the provider's shared pool. */
    public ServiceExport(Class<?> type, String version, String group, Invoker invoker, ClassAllowList allowList,
                         Duration timeout, Map<String, Duration> methodTimeouts) {
        this(type, version, group, invoker, allowList, timeout, methodTimeouts, null);
    }

    public ServiceExport {
        Validate.notNull("type", type);
        Validate.notNull("invoker", invoker);
        version = version == null ? "" : version;
        group = group == null ? "" : group;
        allowList = allowList == null ? ClassAllowList.none() : allowList;
        methodTimeouts = methodTimeouts == null ? Map.of() : Map.copyOf(methodTimeouts);
    }

    /** A service with no version, group, extra allowed classes or provider-side timeout. */
    public static ServiceExport of(Class<?> type, Invoker invoker) {
        return new ServiceExport(type, "", "", invoker, ClassAllowList.none(), null, Map.of());
    }
}
