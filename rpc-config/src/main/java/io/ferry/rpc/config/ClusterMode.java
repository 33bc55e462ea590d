package io.ferry.rpc.config;

/** What a failed call means: Dubbo's {@code cluster} strategies, within the call's one deadline. */
public enum ClusterMode {
    /**
     * Default: a call that provably did not run (or any failure of an idempotent method) moves to another
     * provider, up to {@code retries} times, within the retry budget. Never for one-way calls.
     */
    FAILOVER("failover"),
    /** One attempt; its failure is the call's. */
    FAILFAST("failfast"),
    /** One attempt; a failure is logged and the call returns null (for calls whose result does not matter). */
    FAILSAFE("failsafe"),
    /**
     * One attempt; a failure is logged, the call returns null, and it is tried again in the background every
     * 5 s, up to 3 times, from a queue of at most 1,000 calls (for notifications that must arrive eventually).
     */
    FAILBACK("failback"),
    /** {@code forks} providers at once; the first answer wins. For reads that must be fast. */
    FORKING("forking"),
    /** Every provider; fails if any fails. For cache refreshes and the like. */
    BROADCAST("broadcast");

    private final String dubboName;

    ClusterMode(String dubboName) {
        this.dubboName = dubboName;
    }

    public String dubboName() {
        return dubboName;
    }
}
