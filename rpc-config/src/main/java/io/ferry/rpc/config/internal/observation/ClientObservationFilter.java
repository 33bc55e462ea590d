package io.ferry.rpc.config.internal.observation;

import io.ferry.rpc.Filter;
import io.ferry.rpc.Invocation;
import io.ferry.rpc.Invoker;
import io.ferry.rpc.Result;
import io.ferry.rpc.config.internal.ThreadlessExecutor;
import io.ferry.rpc.config.observation.RpcClientContext;
import io.micrometer.observation.Observation;

import java.util.concurrent.CompletableFuture;

/**
 * Observes a reference's calls, once per call around the cluster (retries inside, one duration to the answer).
 * Starting the observation is when a tracing bridge writes the trace context into the call's attachments. The
 * caller's own stages run in the observation's scope, so a callback logs with the call's trace and span ids (a
 * blocking caller has none: it goes on in its own scope).
 */
final class ClientObservationFilter implements Filter {
    private final CallObservations<RpcClientContext> observations;

    ClientObservationFilter(CallObservations<RpcClientContext> observations) {
        this.observations = observations;
    }

    @Override
    public CompletableFuture<Result> invoke(Invocation invocation, Invoker next) {
        RpcClientContext context = new RpcClientContext(invocation);
        Observation observation = observations.start(context);
        if (observation == null) {
            return next.invoke(invocation);
        }
        CompletableFuture<Result> answer;
        try {
            answer = next.invoke(invocation);
        } catch (RuntimeException | Error e) {
            observations.end(observation, context, e);
            throw e;
        }
        if (invocation.executor() instanceof ThreadlessExecutor) {
            // a blocking caller: it resumes on its own thread, in its own scope, with no callback to run in ours
            return answer.whenComplete((result, error) -> observations.end(observation, context, error));
        }
        CompletableFuture<Result> seen = new CompletableFuture<>();
        answer.whenComplete((result, error) -> {
            observations.end(observation, context, error);
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
}
