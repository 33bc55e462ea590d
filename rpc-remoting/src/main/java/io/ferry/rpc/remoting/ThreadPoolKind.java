package io.ferry.rpc.remoting;

/**
 * How a provider's business pool grows and shrinks: Dubbo's {@code threadpool} names. In every kind a request is
 * refused (THREADPOOL_EXHAUSTED) only when {@code threads + queues} requests are really queued or running.
 */
public enum ThreadPoolKind {
    /** {@code threads} threads, started as needed, never stopped. The default. */
    FIXED("fixed"),
    /**
     * From {@code corethreads} up to {@code threads} threads, made as requests need them (before any request
     * queues); threads beyond {@code corethreads} stop after {@code alive} idle. Dubbo's cached grows without
     * bound by default and queues before it grows once {@code queues > 0}; here it never does either.
     */
    CACHED("cached"),
    /** Like {@link #CACHED}, but threads never stop: the pool only grows, up to {@code threads}. */
    LIMITED("limited"),
    /** Threads before queueing, up to {@code threads}, idle extras stop after {@code alive}: as {@link #CACHED}. */
    EAGER("eager");

    private final String dubboName;

    ThreadPoolKind(String dubboName) {
        this.dubboName = dubboName;
    }

    public String dubboName() {
        return dubboName;
    }
}
