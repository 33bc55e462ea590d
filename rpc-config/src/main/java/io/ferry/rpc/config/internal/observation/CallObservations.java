package io.ferry.rpc.config.internal.observation;

import io.ferry.rpc.config.observation.RpcCall;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;

/**
 * Starting and ending one side's observations of calls, shared by both sides' filters: an observation that cannot
 * start (Micrometer's jars do not link) or that nothing records leaves the call unobserved, never failed.
 *
 * @param <C> the side's context
 */
final class CallObservations<C extends Observation.Context & RpcCall> {
    private final ObservationRegistry registry;
    private final RpcConventions<C> convention;
    private final InstrumentationGuard guard;

    CallObservations(ObservationRegistry registry, RpcConventions<C> convention, InstrumentationGuard guard) {
        this.registry = registry;
        this.convention = convention;
        this.guard = guard;
    }

    /** The call's observation, started; null when the call goes unobserved. */
    Observation start(C context) {
        if (guard.off()) {
            return null;
        }
        try {
            Observation observation = Observation.createNotStarted(null, convention, () -> context, registry).start();
            return observation.isNoop() ? null : observation;
        } catch (LinkageError e) {
            guard.failed(e); // an incompatible bridge: the call goes on unobserved
            return null;
        }
    }

    /** Ends it with the call's status, and its failure ({@code error} as the future gave it), if any. */
    void end(Observation observation, C context, Throwable error) {
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
