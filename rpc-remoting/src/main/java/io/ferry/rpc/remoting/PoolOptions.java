package io.ferry.rpc.remoting;

import java.time.Duration;

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
    private static final PoolOptions DEFAULTS = new PoolOptions(ThreadPoolKind.FIXED, 200, 0, 0,
            Duration.ofSeconds(60));

    public PoolOptions {
        Validate.notNull("threadpool", kind);
        Validate.between("threads", threads, 1, 100_000);
        Validate.between("queues", queues, 0, 10_000_000);
        Validate.between("corethreads", coreThreads, 0, threads);
        Validate.positive("alive", alive);
    }

    public static PoolOptions defaults() {
        return DEFAULTS;
    }

    /** A fixed pool of {@code threads} with {@code queues} waiting places. */
    public static PoolOptions fixed(int threads, int queues) {
        return new PoolOptions(ThreadPoolKind.FIXED, threads, queues, 0, Duration.ofSeconds(60));
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
