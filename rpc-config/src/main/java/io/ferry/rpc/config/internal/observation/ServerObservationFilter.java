package io.ferry.rpc.config.internal.observation;

import io.ferry.rpc.Filter;
import io.ferry.rpc.Invocation;
import io.ferry.rpc.Invoker;
import io.ferry.rpc.Result;
import io.ferry.rpc.config.observation.RpcServerContext;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;

import java.util.concurrent.CompletableFuture;

/**
 * Observes a service's calls on the business thread. Starting the observation is when a tracing bridge reads the
 * caller's trace context from the attachments; the implementation runs in its scope, so its logs carry the trace
 * and span ids and the calls it makes itself continue the trace.
 */
final class ServerObservationFilter implements Filter {
    private final ObservationRegistry registry;
    private final RpcConventions.Server convention;
    private final InstrumentationGuard guard;

    ServerObservationFilter(ObservationRegistry registry, RpcConventions.Server convention,
                            InstrumentationGuard guard) {
        this.registry = registry;
        this.convention = convention;
        this.guard = guard;
    }

    @Override
    public CompletableFuture<Result> invoke(Invocation invocation, Invoker next) {
        if (guard.off()) {
            return next.invoke(invocation);
        }
        RpcServerContext context = new RpcServerContext(invocation);
        Observation observation;
        try {
            observation = Observation.createNotStarted(null, convention, () -> context, registry).start();
        } catch (LinkageError e) {
            guard.failed(e);
            return next.invoke(invocation);
        }
        if (observation.isNoop()) {
            return next.invoke(invocation);
        }
        CompletableFuture<Result> answer;
        try (Observation.Scope scope = observation.openScope()) {
            answer = next.invoke(invocation);
        } catch (RuntimeException | Error e) {
            end(observation, context, e);
            throw e;
        }
        answer.whenComplete((result, error) -> end(observation, context, error));
        return answer;
    }

    private void end(Observation observation, RpcServerContext context, Throwable error) {
        try {
            Throwable cause = error == null ? null : CallOutcome.unwrap(error);
            context.status(CallOutcome.status(cause));
            if (cause != null) {
                observation.error(cause);
            }
            observation.stop();
        } catch (LinkageError e) {
            guard.failed(e);
        }
    }
}
