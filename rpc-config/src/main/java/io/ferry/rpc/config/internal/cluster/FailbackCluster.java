package io.ferry.rpc.config.internal.cluster;

import io.ferry.rpc.Deadline;
import io.ferry.rpc.Invocation;
import io.ferry.rpc.Invoker;
import io.ferry.rpc.Result;
import io.ferry.rpc.Ticker;
import io.ferry.rpc.cluster.Cluster;
import io.ferry.rpc.cluster.Directory;
import io.ferry.rpc.cluster.LoadBalancer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Dubbo's {@code failback}: one attempt; on failure the call returns null at once, and it is tried again in the
 * background after {@code interval}, up to {@code attempts} more times, each with a fresh deadline as long as the
 * call's timeout. At most {@code capacity} calls wait for a retry; beyond that a failure is logged and dropped.
 * For notifications that must arrive eventually but need no answer.
 */
public final class FailbackCluster implements Cluster {
    private static final Logger log = LoggerFactory.getLogger(FailbackCluster.class);

    private final ScheduledExecutorService scheduler;
    private final Ticker ticker;
    private final Duration interval;
    private final int attempts;
    private final int capacity;
    private final AtomicInteger waiting = new AtomicInteger();

    public FailbackCluster(ScheduledExecutorService scheduler, Ticker ticker, Duration interval, int attempts,
                           int capacity) {
        this.scheduler = scheduler;
        this.ticker = ticker;
        this.interval = interval;
        this.attempts = attempts;
        this.capacity = capacity;
    }

    /** Calls waiting for a retry now. */
    public int waiting() {
        return waiting.get();
    }

    @Override
    public Invoker join(Directory directory, LoadBalancer balancer) {
        Invoker once = new FailfastCluster().join(directory, balancer);
        return invocation -> once.invoke(invocation).exceptionally(error -> {
            retryLater(once, invocation, 1, error);
            return Result.empty();
        });
    }

    /** Schedules retry number {@code attempt} (from 1) of a call that failed with {@code error}. */
    private void retryLater(Invoker once, Invocation invocation, int attempt, Throwable error) {
        if (attempt == 1 && waiting.incrementAndGet() > capacity) {
            waiting.decrementAndGet();
            log.warn("{} failed and the failback queue is full ({}); dropped: {}", invocation.description(),
                    capacity, error.toString());
            return;
        }
        log.info("{} failed; trying again in {} ms (failback {} of {}): {}", invocation.description(),
                interval.toMillis(), attempt, attempts, error.toString());
        try {
            scheduler.schedule(() -> {
                Invocation again = invocation.withDeadline(Deadline.after(invocation.deadline().timeout(), ticker));
                once.invoke(again).whenComplete((r, e) -> {
                    if (e == null) {
                        waiting.decrementAndGet();
                    } else if (attempt >= attempts) {
                        waiting.decrementAndGet();
                        log.warn("{} failed {} times; giving up (failback): {}", invocation.description(),
                                attempt + 1, e.toString());
                    } else {
                        retryLater(once, invocation, attempt + 1, e);
                    }
                });
            }, interval.toNanos(), TimeUnit.NANOSECONDS);
        } catch (RejectedExecutionException closed) {
            waiting.decrementAndGet();
            log.warn("{} failed while the consumer is closing; not retried: {}", invocation.description(),
                    error.toString());
        }
    }
}
