package io.ferry.rpc.config.internal.observation;

import io.ferry.rpc.Filter;
import io.ferry.rpc.Invocation;
import io.ferry.rpc.Invoker;
import io.ferry.rpc.Result;
import io.ferry.rpc.config.observation.RpcClientContext;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;

import java.util.concurrent.CompletableFuture;

/**
 * Observes a reference's calls, once per call around the cluster (retries inside, one duration to the answer).
 * Starting the observation is when a tracing bridge writes the trace context into the call's attachments. The
 * caller's own stages run in the observation's scope, so a callback logs with the call's trace and span ids.
 */
final class ClientObservationFilter implements Filter {
    private final ObservationRegistry registry;
    private final RpcConventions.Client convention;
    private final InstrumentationGuard guard;

    ClientObservationFilter(ObservationRegistry registry, RpcConventions.Client convention,
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
        RpcClientContext context = new RpcClientContext(invocation);
        Observation observation;
        try {
            observation = Observation.createNotStarted(null, convention, () -> context, registry).start();
        } catch (LinkageError e) {
            guard.failed(e); // an incompatible bridge: the call goes on unobserved
            return next.invoke(invocation);
        }
        if (observation.isNoop()) {
            return next.invoke(invocation);
        }
        CompletableFuture<Result> answer;
        try {
            answer = next.invoke(invocation);
        } catch (RuntimeException | Error e) {
            end(observation, context, e);
            throw e;
        }
        CompletableFuture<Result> seen = new CompletableFuture<>();
        answer.whenComplete((result, error) -> {
            end(observation, context, error);
            try (Observation.Scope scope = observation.openScope()) {
                if (error == null) {
                    seen.complete(result);
                } else {
                    seen.completeExceptionally(error);
                }
            }
        });
        return seen;
    }

    private void end(Observation observation, RpcClientContext context, Throwable error) {
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
