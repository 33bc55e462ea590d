package io.ferry.rpc.config.internal.cluster;

/**
 * What a reference's retries came to, where its cluster retries at all: read by the meters, without blocking a
 * call for longer than the budget's own bookkeeping does.
 */
public interface RetryStats {
    /** Attempts moved to another provider since the reference was made. */
    long retries();

    /** Retries the budget refused (the call then failed with its last error). */
    long refusedByBudget();

    /** Retries the budget would allow now, over its 10-second window. */
    double budgetLeft();
}
