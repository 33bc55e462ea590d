package io.ferry.rpc.remoting;

import java.net.InetSocketAddress;
import java.time.Duration;

/** Opens endpoints for one service interface with one set of options: one per reference. Thread-safe. */
@FunctionalInterface
public interface EndpointFactory {
    /**
     * Opens an endpoint to a provider. Unless {@code lazy}, it starts connecting after a random delay in
     * [0, {@code connectSpread}), so that thousands of consumers told of one provider at once do not all knock on
     * its accept queue in the same millisecond; the first call that needs the connection starts it at once.
     */
    ProviderEndpoint open(InetSocketAddress address, int weight, Duration connectSpread);
}
