package io.ferry.rpc.spi;

import java.time.Duration;

/**
 * For Ferry's own builders, not for applications: checks of values that are not options of the table (an option is
 * checked by its {@code Option}), with the same wording: {@code "timeout: -5ms (expected: > 0)"}.
 */
public final class Validate {
    private Validate() {
    }

    public static int atLeast(String option, int value, int min) {
        if (value < min) {
            throw new IllegalArgumentException(option + ": " + value + " (expected: >= " + min + ")");
        }
        return value;
    }

    public static int between(String option, int value, int min, int max) {
        if (value < min || value > max) {
            throw new IllegalArgumentException(option + ": " + value + " (expected: " + min + ".." + max + ")");
        }
        return value;
    }

    public static Duration positive(String option, Duration value) {
        if (value == null || value.isNegative() || value.isZero()) {
            throw new IllegalArgumentException(option + ": " + (value == null ? "null" : value.toMillis() + "ms")
                    + " (expected: > 0)");
        }
        return value;
    }

    public static <T> T notNull(String option, T value) {
        if (value == null) {
            throw new IllegalArgumentException(option + ": null (expected: a value)");
        }
        return value;
    }
}
