package io.ferry.rpc.remoting.internal.service;

import io.ferry.rpc.Invoker;

/**
 * One exported service: its schema, the version and group consumers ask for, the invoker that runs its calls
 * (Ferry's provider filters, then the user's, then the implementation), and what its requests count.
 *
 * @param version  "" or "0.0.0" for none
 * @param group    "" for none
 * @param counters its requests in flight and those dropped for their deadline (the invoker counts the drops)
 */
public record ProviderService(ServiceSchema schema, String version, String group, Invoker invoker,
                              ServiceCounters counters) {
    /** A service whose counts nobody reads. */
    public ProviderService(ServiceSchema schema, String version, String group, Invoker invoker) {
        this(schema, version, group, invoker, new ServiceCounters());
    }
}
