package io.ferry.rpc.config.observation;

import io.ferry.rpc.Invocation;
import io.ferry.rpc.config.internal.observation.CallTimers;
import io.micrometer.core.instrument.Clock;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.observation.MeterObservationHandler;
import io.micrometer.observation.Observation;

import java.util.concurrent.TimeUnit;

/**
 * Times Ferry's observed calls into the timers Micrometer's {@code DefaultMeterObservationHandler} would make of
 * them ({@value RpcObservations#CLIENT}, {@value RpcObservations#SERVER}; the calls' tags and {@code error}), each
 * looked up once per method, status and exception rather than built, sorted and registered on every start and stop,
 * which a profile found to be the largest share of what a traced call costs. It makes no {@code .active}
 * long-task timer: {@code ferry.calls.active} already counts the calls in flight.
 *
 * <p>It supports Ferry's contexts only, so it goes ahead of the default meter handler, in one
 * {@code FirstMatchingCompositeObservationHandler}, and every other observation goes on to that one:
 * <pre>{@code
 * registry.observationConfig().observationHandler(new FirstMatchingCompositeObservationHandler(
 *         new RpcMeterObservationHandler(meters), new DefaultMeterObservationHandler(meters)));
 * }</pre>
 * Spring Boot groups every {@code MeterObservationHandler} bean that way, in their order; Ferry's starter declares
 * this one first. Unlike Boot's tracing-aware meter handler, it adds no exemplars (trace ids) to the timers.
 */
public final class RpcMeterObservationHandler implements MeterObservationHandler<Observation.Context> {
    /** A context's start time before this handler saw it start (a monotonic clock may read 0). */
    static final long NOT_STARTED = Long.MIN_VALUE;

    private final CallTimers client;
    private final CallTimers server;
    private final Clock clock;

    public RpcMeterObservationHandler(MeterRegistry registry) {
        this.client = CallTimers.client(registry);
        this.server = CallTimers.server(registry);
        this.clock = registry.config().clock();
    }

    @Override
    public boolean supportsContext(Observation.Context context) {
        return context instanceof RpcClientContext || context instanceof RpcServerContext;
    }

    @Override
    public void onStart(Observation.Context context) {
        long now = clock.monotonicTime();
        if (context instanceof RpcClientContext call) {
            call.startNanos = now;
        } else {
            ((RpcServerContext) context).startNanos = now;
        }
    }

    /**
     * Records the call under its outcome: the error the observation was given (as Ferry's filters unwrap it). A call
     * whose start this handler did not see (one it was added too late for) is not timed rather than timed wrong.
     */
    @Override
    public void onStop(Observation.Context context) {
        long now = clock.monotonicTime();
        if (context instanceof RpcClientContext call) {
            record(client, call.invocation(), context.getError(), call.startNanos, now);
        } else {
            RpcServerContext call = (RpcServerContext) context;
            record(server, call.invocation(), context.getError(), call.startNanos, now);
        }
    }

    private static void record(CallTimers timers, Invocation call, Throwable error, long start, long now) {
        if (start != NOT_STARTED) {
            timers.timer(call, error).record(now - start, TimeUnit.NANOSECONDS);
        }
    }
}
