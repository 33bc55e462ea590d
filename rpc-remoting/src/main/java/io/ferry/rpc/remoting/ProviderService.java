package io.ferry.rpc.remoting;

import io.ferry.rpc.Invoker;

/**
 * One exported service: its schema, the version and group consumers ask for, and the invoker that runs calls.
 *
 * @param version "" or "0.0.0" for none
 * @param group   "" for none
 */
public record ProviderService(ServiceSchema schema, String version, String group, Invoker invoker) {
}
