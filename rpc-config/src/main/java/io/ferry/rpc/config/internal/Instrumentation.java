package io.ferry.rpc.config.internal;

import io.ferry.rpc.Filter;

/**
 * The filters that observe calls, placed by Ferry outermost on both sides so that every call is seen, refused ones
 * included. Free of Micrometer's types: a Ferry without observability never loads the classes behind it.
 */
public interface Instrumentation {
    /** Observes each call of one reference, once per call (retries inside). */
    Filter consumerFilter();

    /** Observes each call one service runs, on its business thread. */
    Filter providerFilter();
}
