package io.ferry.rpc.remoting.internal.server;

import io.ferry.rpc.Filter;
import io.ferry.rpc.Invoker;
import io.ferry.rpc.Ticker;
import io.ferry.rpc.remoting.internal.service.ServiceCounters;
import io.ferry.rpc.remoting.internal.service.ServiceSchema;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The provider's own features, as filters placed before the user's: drop an expired request, report a slow call
 * (where a provider timeout is set), make a failure deliverable. The context filter goes in front of them per request (it needs the connection).
 */
public final class ProviderChain {
    private ProviderChain() {
    }

    /**
     * {@code exported} (the user's filters around the implementation) behind Ferry's provider filters.
     *
     * @param timeout        the service's provider-side timeout, or null for none
     * @param methodTimeouts per method name, overriding {@code timeout}
     */
    public static Invoker around(Invoker exported, ServiceSchema schema, Duration timeout,
                                 Map<String, Duration> methodTimeouts, Ticker ticker) {
        return around(exported, schema, timeout, methodTimeouts, ticker, new ServiceCounters());
    }

    /** As above, counting the requests dropped for their deadline in {@code counters}. */
    public static Invoker around(Invoker exported, ServiceSchema schema, Duration timeout,
                                 Map<String, Duration> methodTimeouts, Ticker ticker, ServiceCounters counters) {
        List<Filter> own = new ArrayList<>(3);
        own.add(new ExpiredRequestFilter(counters));
        if (timeout != null || !methodTimeouts.isEmpty()) {
            // only where there is a budget to report on: one filter type fewer keeps the chain's call site
            // bimorphic, which the JIT inlines, in the common case of a service without a provider timeout
            own.add(new SlowCallFilter(timeout, methodTimeouts, ticker));
        }
        own.add(new ExceptionSanitizer(schema.serializerFactory().allowed()));
        return Filter.chain(own, exported);
    }
}
