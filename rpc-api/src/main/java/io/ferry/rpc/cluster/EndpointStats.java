package io.ferry.rpc.cluster;

/**
 * What a consumer has seen of one provider: the load balancers' inputs. Read without locks; values may be a moment
 * old.
 */
public interface EndpointStats {
    /** Calls sent to the provider and not yet ended. */
    int active();

    /**
     * A moving average of the provider's response time in nanoseconds, rising at once with a slower answer
     * (a timeout counts as one as long as the call's timeout) and decaying over a few seconds; 0 before any answer.
     */
    double latencyNanos();

    /** Calls that ended with an answer (a value or the service's own exception). */
    long succeeded();

    /** Calls that ended with a framework failure (timeout, connection lost, refused). */
    long failed();
}
