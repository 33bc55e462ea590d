package io.ferry.rpc.config.internal.observation;

import io.ferry.rpc.Filter;
import io.ferry.rpc.Invocation;
import io.ferry.rpc.Invoker;
import io.ferry.rpc.Result;
import io.ferry.rpc.config.observation.RpcServerContext;
import io.micrometer.observation.Observation;

import java.util.concurrent.CompletableFuture;

/**
 * Observes a service's calls on the business thread. Starting the observation is when a tracing bridge reads the
 * caller's trace context from the attachments; the implementation runs in its scope, so its logs carry the trace
 * and span ids and the calls it makes itself continue the trace.
 */
final class ServerObservationFilter implements Filter {
    private final CallObservations<RpcServerContext> observations;

    ServerObservationFilter(CallObservations<RpcServerContext> observations) {
        this.observations = observations;
    }

    @Override
    public CompletableFuture<Result> invoke(Invocation invocation, Invoker next) {
        RpcServerContext context = new RpcServerContext(invocation);
        Observation observation = observations.start(context);
        if (observation == null) {
            return next.invoke(invocation);
        }
        CompletableFuture<Result> answer;
        try (Observation.Scope scope = observation.openScope()) {
            answer = next.invoke(invocation);
        } catch (RuntimeException | Error e) {
            observations.end(observation, context, e);
            throw e;
        }
        answer.whenComplete((result, error) -> observations.end(observation, context, error));
        return answer;
    }
}
