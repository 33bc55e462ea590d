package io.ferry.rpc.config;

import io.ferry.rpc.spi.Validate;

/**
 * How many retries a reference may make, so that a cluster in trouble is not hit three times as hard: over the
 * last 10 seconds, at most {@code minPerSecond} retries a second plus {@code percent} of the calls made. Every move
 * of a call to another provider counts as a retry. A call that finds the budget spent fails with its last error.
 *
 * @param minPerSecond the floor, for references that make few calls; default 10
 * @param percent      the share of calls that may be retried on top of the floor; default 10
 */
public record RetryBudget(int minPerSecond, int percent) {
    private static final RetryBudget DEFAULTS = new RetryBudget(10, 10);

    public RetryBudget {
        Validate.between("retryBudget.minPerSecond", minPerSecond, 0, 1_000_000);
        Validate.between("retryBudget.percent", percent, 0, 1000);
    }

    public static RetryBudget defaults() {
        return DEFAULTS;
    }

    /** No limit beyond {@code retries} per call. */
    public static RetryBudget unlimited() {
        return new RetryBudget(1_000_000, 1000);
    }
}
