package io.ferry.rpc.remoting;

/**
 * One business pool of a server at one moment, read without locks (values may be a moment old).
 *
 * @param name     {@code shared} for the server's pool, else the interface name of the service the pool is
 *                 dedicated to
 * @param active   threads running requests now
 * @param queued   requests admitted and waiting for a thread
 * @param capacity {@code threads + queues}: requests the pool takes at once before it refuses
 * @param refused  requests answered THREADPOOL_EXHAUSTED since the server started
 */
public record PoolStats(String name, int active, int queued, int capacity, long refused) {
    /** The name of the pool every service without one of its own runs on. */
    public static final String SHARED = "shared";
}
