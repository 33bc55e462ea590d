package io.ferry.rpc.config;

import io.ferry.rpc.spi.Validate;

import java.time.Duration;

/**
 * When a consumer stops choosing a provider that keeps failing (a frozen process, a blackholed path, a long GC
 * pause: the TCP connection stays up, so heartbeats notice only after minutes). After
 * {@code consecutiveFailures} calls in a row end in a timeout or a lost connection, the provider is ejected for
 * {@code baseEjection}; when that is over, one probe call decides whether it is trusted again, and each ejection
 * in a row doubles the time, up to {@code maxEjection}. A reference never ejects more than
 * {@code maxEjectedPercent} of its providers (rounded down), so a cluster that is failing as a whole keeps
 * being called.
 *
 * @param enabled             on by default
 * @param consecutiveFailures 5
 * @param baseEjection        5 s
 * @param maxEjection         2 min
 * @param maxEjectedPercent   50: with two providers, one may be ejected; with one, none
 */
public record OutlierEjection(boolean enabled, int consecutiveFailures, Duration baseEjection, Duration maxEjection,
                              int maxEjectedPercent) {
    private static final OutlierEjection DEFAULTS = new OutlierEjection(true, 5, Duration.ofSeconds(5),
            Duration.ofMinutes(2), 50);

    public OutlierEjection {
        Validate.between("outlierEjection.consecutiveFailures", consecutiveFailures, 1, 1_000_000);
        Validate.positive("outlierEjection.baseEjection", baseEjection);
        Validate.positive("outlierEjection.maxEjection", maxEjection);
        if (maxEjection.compareTo(baseEjection) < 0) {
            throw new IllegalArgumentException("outlierEjection.maxEjection: " + maxEjection.toMillis()
                    + "ms (expected: >= baseEjection " + baseEjection.toMillis() + "ms)");
        }
        Validate.between("outlierEjection.maxEjectedPercent", maxEjectedPercent, 0, 100);
    }

    public static OutlierEjection defaults() {
        return DEFAULTS;
    }

    /** Never eject. */
    public static OutlierEjection disabled() {
        return new OutlierEjection(false, 5, Duration.ofSeconds(5), Duration.ofMinutes(2), 50);
    }
}
