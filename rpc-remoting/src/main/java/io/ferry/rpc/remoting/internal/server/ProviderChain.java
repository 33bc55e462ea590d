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
 * The provider's own features, as filters placed before the user's: make a failure deliverable, then the export's
 * front filter (if any), drop an expired request, report a slow call (where a provider timeout is set). The context
 * filter goes in front of them per request (it needs the connection).
 */
public final class ProviderChain {
    private ProviderChain() {
    }

    /**
     * {@code exported} (the user's filters around the implementation) behind Ferry's provider filters.
     *
     * @param timeout        the service's provider-side timeout, or null for none
     * @param methodTimeouts per method name, overriding {@code timeout}
     * @param front          the export's front filter, or null: inside the sanitizer, so that it sees a failure as
     *                       the service gave it, and outside the deadline drop, so that it sees the drop too
     */
    public static Invoker around(Invoker exported, ServiceSchema schema, Duration timeout,
                                 Map<String, Duration> methodTimeouts, Ticker ticker, Filter front) {
        return around(exported, schema, timeout, methodTimeouts, ticker, front, new ServiceCounters());
    }

    /** As above, counting the requests dropped for their deadline in {@code counters}. */
    public static Invoker around(Invoker exported, ServiceSchema schema, Duration timeout,
                                 Map<String, Duration> methodTimeouts, Ticker ticker, Filter front,
                                 ServiceCounters counters) {
        List<Filter> own = new ArrayList<>(4);
        // first: it passes refusals unchanged and only rewrites what the service threw, wherever it sits
        own.add(new ExceptionSanitizer(schema.serializerFactory().allowed()));
        if (front != null) {
            own.add(front);
        }
        own.add(new ExpiredRequestFilter(counters));
        if (timeout != null || !methodTimeouts.isEmpty()) {
            // only where there is a budget to report on: one filter type fewer keeps the chain's call site
            // bimorphic, which the JIT inlines, in the common case of a service without a provider timeout
            own.add(new SlowCallFilter(timeout, methodTimeouts, ticker));
        }
        return Filter.chain(own, exported);
    }
}
