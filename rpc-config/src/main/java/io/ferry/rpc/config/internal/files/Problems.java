package io.ferry.rpc.config.internal.files;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Every mistake found in a file, so that one run reports them all: each message already names the file and line
 * (or the system property), the element or key, and what was expected. {@link #throwIfAny()} throws them as one
 * {@link IllegalArgumentException}, one per line, in file order (by line; in the order found within a line and for
 * messages that carry none); a single problem reads exactly as it did alone. Not thread-safe.
 */
final class Problems {
    private static final Pattern LINE = Pattern.compile("^[^:\\n]*:(\\d+):");

    private record Problem(int line, int order, String message, IllegalArgumentException cause) {
    }

    private final List<Problem> found = new ArrayList<>();

    /** Adds a problem at {@code line} of the file (0 or less: none known). */
    void add(int line, String message) {
        found.add(new Problem(line > 0 ? line : Integer.MAX_VALUE, found.size(), message, null));
    }

    /** Adds what a check threw; its message is expected to start with {@code file:line:}, as every check's does. */
    void add(IllegalArgumentException e) {
        String message = String.valueOf(e.getMessage());
        for (String one : message.split("\n")) { // a check may itself have gathered several
            found.add(new Problem(lineOf(one), found.size(), one, e));
        }
    }

    /** Runs a check, keeping what it throws; returns its result, or null when it failed. */
    <T> T attemptValue(Supplier<T> check) {
        try {
            return check.get();
        } catch (IllegalArgumentException e) {
            add(e);
            return null;
        }
    }

    /** Runs a check, keeping what it throws; returns whether it passed. */
    boolean attempt(Runnable check) {
        try {
            check.run();
            return true;
        } catch (IllegalArgumentException e) {
            add(e);
            return false;
        }
    }

    void addAll(Problems other) {
        other.found.forEach(p -> found.add(new Problem(p.line, found.size(), p.message, p.cause)));
    }

    boolean isEmpty() {
        return found.isEmpty();
    }

    int size() {
        return found.size();
    }

    /**
     * Throws every problem as one error: a single one as it was thrown (same message and cause), several one per
     * line in file order, the first one's error as the cause.
     */
    void throwIfAny() {
        if (found.isEmpty()) {
            return;
        }
        List<Problem> ordered = new ArrayList<>(found);
        ordered.sort(Comparator.comparingInt(Problem::line).thenComparingInt(Problem::order));
        if (ordered.size() == 1 && ordered.get(0).cause != null) {
            throw ordered.get(0).cause;
        }
        List<String> lines = new ArrayList<>();
        ordered.forEach(p -> {
            if (!lines.contains(p.message)) {
                lines.add(p.message);
            }
        });
        IllegalArgumentException all = new IllegalArgumentException(String.join("\n", lines),
                ordered.get(0).cause);
        throw all;
    }

    private static int lineOf(String message) {
        Matcher m = LINE.matcher(message);
        if (m.find()) {
            try {
                return Integer.parseInt(m.group(1));
            } catch (NumberFormatException e) {
                return Integer.MAX_VALUE;
            }
        }
        return Integer.MAX_VALUE;
    }
}
