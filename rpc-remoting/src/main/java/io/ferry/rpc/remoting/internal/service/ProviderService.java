package io.ferry.rpc.remoting.internal.service;

import io.ferry.rpc.Invoker;

/**
 * One exported service: its schema, the version and group consumers ask for, and the invoker that runs its calls
 * (Ferry's provider filters, then the user's, then the implementation).
 *
 * @param version "" or "0.0.0" for none
 * @param group   "" for none
 */
public record ProviderService(ServiceSchema schema, String version, String group, Invoker invoker) {
}
