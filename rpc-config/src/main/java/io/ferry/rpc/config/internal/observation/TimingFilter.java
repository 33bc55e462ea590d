package io.ferry.rpc.config.internal.observation;

import io.ferry.rpc.Filter;
import io.ferry.rpc.Invocation;
import io.ferry.rpc.Invoker;
import io.ferry.rpc.Result;
import io.micrometer.core.instrument.Clock;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * Times calls straight into a meter registry, where the application gave Ferry one and no observation registry:
 * the same timers as observations with a meter handler make, for a fraction of their cost (no observation, context
 * or tag set per call). On the consumer the time runs to the answer, before the caller's own stages run.
 */
final class TimingFilter implements Filter {
    private final CallTimers timers;
    private final Clock clock;
    private final boolean consumer;

    TimingFilter(CallTimers timers, boolean consumer) {
        this.timers = timers;
        this.clock = timers.registry().config().clock();
        this.consumer = consumer;
    }

    @Override
    public CompletableFuture<Result> invoke(Invocation invocation, Invoker next) {
        long start = clock.monotonicTime();
        CompletableFuture<Result> answer;
        try {
            answer = next.invoke(invocation);
        } catch (RuntimeException | Error e) {
            record(invocation, e, start);
            throw e;
        }
        if (consumer) {
            return answer.whenComplete((result, error) -> record(invocation, error, start));
        }
        answer.whenComplete((result, error) -> record(invocation, error, start));
        return answer;
    }

    private void record(Invocation invocation, Throwable error, long start) {
        timers.timer(invocation, error == null ? null : CallOutcome.unwrap(error))
                .record(clock.monotonicTime() - start, TimeUnit.NANOSECONDS);
    }
}
