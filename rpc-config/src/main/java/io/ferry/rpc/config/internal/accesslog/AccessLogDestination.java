package io.ferry.rpc.config.internal.accesslog;

import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.Locale;

/**
 * Where the {@code accesslog} option sends its lines, read as Dubbo reads it: {@code true} (or Dubbo's
 * {@code default}) is the logger {@value #LOGGER}; {@code false} is nowhere; any other value is a file to append to.
 * A relative path is resolved against the working directory once, when read, so that two spellings of one file share
 * one writer.
 *
 * @param file the file, absolute and normalised; null for the logger
 */
public record AccessLogDestination(Path file) {
    /** The slf4j logger the lines go to with {@code accesslog="true"} (Dubbo's is {@code dubbo.accesslog}). */
    public static final String LOGGER = "ferry.accesslog";

    /** The logger. */
    public static AccessLogDestination logger() {
        return new AccessLogDestination(null);
    }

    /**
     * The destination {@code value} names, or null for {@code false} (no access log).
     *
     * @param where where the value was set ({@code ferry.xml:7: <service ...>}), empty for code
     * @throws IllegalArgumentException naming the option, for a value that is no file name
     */
    public static AccessLogDestination parse(String value, String where) {
        String v = value.trim();
        String lower = v.toLowerCase(Locale.ROOT);
        if (lower.equals("false")) {
            return null;
        }
        if (lower.equals("true") || lower.equals("default")) {
            return logger();
        }
        try {
            if (v.isEmpty()) {
                throw new InvalidPathException(v, "empty");
            }
            return new AccessLogDestination(Path.of(v).toAbsolutePath().normalize());
        } catch (InvalidPathException e) {
            throw new IllegalArgumentException((where.isEmpty() ? "" : where + ": ") + "accesslog: '" + value
                    + "' (expected: true, false or a file name: " + e.getReason() + ")");
        }
    }

    /** Whether the lines go to the logger rather than a file. */
    public boolean isLogger() {
        return file == null;
    }

    @Override
    public String toString() {
        return isLogger() ? "logger " + LOGGER : file.toString();
    }
}
