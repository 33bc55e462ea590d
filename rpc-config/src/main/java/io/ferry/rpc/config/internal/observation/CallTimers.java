package io.ferry.rpc.config.internal.observation;

import io.ferry.rpc.Invocation;
import io.ferry.rpc.RpcException;
import io.ferry.rpc.RpcStatus;
import io.ferry.rpc.config.observation.RpcObservations;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;

import java.lang.reflect.Method;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * The timers of one side, one per method, status and error, looked up without building a meter id per call: a
 * registry lookup makes and sorts tags each time, which costs more than the recording itself. The meters are those
 * an observation with a meter handler makes (name, tags, {@code error}), so dashboards read either alike.
 */
public final class CallTimers {
    private static final int STATUSES = RpcStatus.values().length + 1;
    private static final String ERROR = "error";
    private static final String NONE = "none";

    private final MeterRegistry registry;
    private final String name;
    private final String description;
    private final PerServiceMethod<PerMethod> byMethod = new PerServiceMethod<>(PerMethod::new);

    private CallTimers(MeterRegistry registry, String name, String description) {
        this.registry = registry;
        this.name = name;
        this.description = description;
    }

    /** The timers of the calls this process's references make. */
    public static CallTimers client(MeterRegistry registry) {
        return new CallTimers(registry, RpcObservations.CLIENT,
                "Calls made by this process's references, retries included, to their answer");
    }

    /** The timers of the calls this process's services serve. */
    public static CallTimers server(MeterRegistry registry) {
        return new CallTimers(registry, RpcObservations.SERVER,
                "Calls served by this process's services, from the business thread to the answer");
    }

    MeterRegistry registry() {
        return registry;
    }

    /** The timer of a call that ended with {@code failure} (unwrapped; null when it returned). */
    public Timer timer(Invocation call, Throwable failure) {
        PerMethod timers = byMethod.get(call.service(), call.method());
        if (failure != null && !(failure instanceof RpcException)) {
            // the service's own exception: one timer per class it throws, as few as its signature has
            return timers.exceptions.computeIfAbsent(failure.getClass(),
                    type -> register(timers.tags, RpcObservations.EXCEPTION, type.getSimpleName()));
        }
        // one slot per status, and per class: a provider's refusal (ProviderRefusal) and a service's own RpcException
        // of the same status have error tags of their own, as a meter handler would tag them
        AtomicReferenceArray<Timer> slots = failure == null || failure.getClass() == RpcException.class
                ? timers.byStatus : timers.byRpcSubclass.computeIfAbsent(failure.getClass(),
                        type -> new AtomicReferenceArray<>(STATUSES));
        int slot = failure == null ? 0 : 1 + ((RpcException) failure).status().ordinal();
        Timer timer = slots.get(slot);
        if (timer == null) {
            timer = register(timers.tags, CallOutcome.status(failure),
                    failure == null ? NONE : failure.getClass().getSimpleName());
            slots.lazySet(slot, timer);
        }
        return timer;
    }

    private Timer register(Tags tags, String status, String error) {
        return Timer.builder(name).description(description)
                .tags(tags.and(RpcObservations.STATUS, status).and(ERROR, error)).register(registry);
    }

    private static final class PerMethod {
        final Tags tags;
        final AtomicReferenceArray<Timer> byStatus = new AtomicReferenceArray<>(STATUSES);
        final ConcurrentMap<Class<?>, Timer> exceptions = new ConcurrentHashMap<>();
        final ConcurrentMap<Class<?>, AtomicReferenceArray<Timer>> byRpcSubclass = new ConcurrentHashMap<>();

        PerMethod(String service, Method method) {
            this.tags = Tags.of(RpcObservations.SYSTEM, RpcObservations.SYSTEM_DUBBO, RpcObservations.SERVICE,
                    service, RpcObservations.METHOD, method.getName());
        }
    }
}
