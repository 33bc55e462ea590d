package io.ferry.rpc.remoting;

import io.ferry.rpc.option.OptionValues;
import io.ferry.rpc.spi.Validate;

import java.time.Duration;

import static io.ferry.rpc.remoting.TransportOptions.ALIVE;
import static io.ferry.rpc.remoting.TransportOptions.CORE_THREADS;
import static io.ferry.rpc.remoting.TransportOptions.QUEUES;
import static io.ferry.rpc.remoting.TransportOptions.THREADS;
import static io.ferry.rpc.remoting.TransportOptions.THREAD_POOL;

/**
 * A business pool: the provider's shared one ({@link ServerOptions}) or a service's own ({@link ServiceExport}), so
 * one slow service cannot take every thread from the others.
 *
 * @param kind        {@link ThreadPoolKind#FIXED} by default
 * @param threads     200: the most threads
 * @param queues      0: requests that may wait for a thread beyond those running; more are answered
 *                    THREADPOOL_EXHAUSTED at once
 * @param coreThreads 0: threads kept however idle (cached, limited and eager pools)
 * @param alive       60 s: how long an idle thread beyond {@code coreThreads} lives (cached and eager pools)
 */
public record PoolOptions(ThreadPoolKind kind, int threads, int queues, int coreThreads, Duration alive) {
    private static final PoolOptions DEFAULTS = of(OptionValues.none());

    /** Each value checked by its option in {@link TransportOptions}; {@code coreThreads} at most {@code threads}. */
    public PoolOptions {
        THREAD_POOL.check(kind, "");
        THREADS.check(threads, "");
        QUEUES.check(queues, "");
        Validate.between(CORE_THREADS.name(), CORE_THREADS.check(coreThreads, ""), 0, threads);
        ALIVE.check(alive, "");
    }

    public static PoolOptions defaults() {
        return DEFAULTS;
    }

    /** The pool {@code values} describe: each option of {@link TransportOptions#POOL} they set, else its default. */
    public static PoolOptions of(OptionValues values) {
        return new PoolOptions(values.get(THREAD_POOL), values.get(THREADS), values.get(QUEUES),
                values.get(CORE_THREADS), values.get(ALIVE));
    }

    /** This pool's values, as options. */
    public OptionValues values() {
        return OptionValues.none().with(THREAD_POOL, kind).with(THREADS, threads).with(QUEUES, queues)
                .with(CORE_THREADS, coreThreads).with(ALIVE, alive);
    }

    /** A fixed pool of {@code threads} with {@code queues} waiting places. */
    public static PoolOptions fixed(int threads, int queues) {
        return new PoolOptions(ThreadPoolKind.FIXED, threads, queues, 0, ALIVE.defaultValue());
    }

    public PoolOptions withKind(ThreadPoolKind kind) {
        return new PoolOptions(kind, threads, queues, coreThreads, alive);
    }

    public PoolOptions withThreads(int threads) {
        return new PoolOptions(kind, threads, queues, Math.min(coreThreads, threads), alive);
    }

    public PoolOptions withQueues(int queues) {
        return new PoolOptions(kind, threads, queues, coreThreads, alive);
    }

    public PoolOptions withCoreThreads(int coreThreads) {
        return new PoolOptions(kind, threads, queues, coreThreads, alive);
    }

    public PoolOptions withAlive(Duration alive) {
        return new PoolOptions(kind, threads, queues, coreThreads, alive);
    }
}
