package io.ferry.rpc.cluster;

import io.ferry.rpc.Invoker;

/**
 * One provider address as a consumer's cluster sees it: an {@link Invoker} that sends calls over that provider's
 * connections, plus what a load balancer and a fault-tolerance strategy need to know about it.
 */
public interface Endpoint extends Invoker {
    /** {@code host:port}. */
    String address();

    /**
     * The provider's weight for weighted balancers now: 100 unless the registry says otherwise, ramped up linearly
     * over the provider's warm-up after it starts (Dubbo's {@code warmup}), never below 1 while the weight is set.
     */
    int weight();

    /** What this consumer has seen of the provider. */
    EndpointStats stats();

    /**
     * Whether a call sent now would go out at once: a connection is open and ready, and the provider has not
     * announced that it is shutting down.
     */
    boolean isReady();
}
