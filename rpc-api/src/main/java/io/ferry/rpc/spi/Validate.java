package io.ferry.rpc.spi;

import java.time.Duration;
import java.util.List;

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

    /**
     * Throws every mistake in {@code found} as one error, so that one run reports them all: a single one as it was,
     * several as one error of their messages, a line each, with the first as its cause and the others suppressed.
     * Nothing when {@code found} is empty.
     */
    public static void throwAll(List<IllegalArgumentException> found) {
        if (found.size() == 1) {
            throw found.get(0);
        }
        if (!found.isEmpty()) {
            IllegalArgumentException all = new IllegalArgumentException(String.join("\n",
                    found.stream().map(Throwable::getMessage).toList()), found.get(0));
            found.subList(1, found.size()).forEach(all::addSuppressed);
            throw all;
        }
    }

    public static <T> T notNull(String option, T value) {
        if (value == null) {
            throw new IllegalArgumentException(option + ": null (expected: a value)");
        }
        return value;
    }
}
