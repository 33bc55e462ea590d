package io.ferry.rpc.config.internal.files;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads a properties file keeping each entry's line, which {@link java.util.Properties} forgets: {@code key=value}
 * or {@code key: value}, comments starting with {@code #} or {@code !}, a trailing backslash continuing the value
 * on the next line, and the escapes {@code Properties} reads (a backslash, {@code u} and four hex digits; a backslash
 * before a tab letter, {@code =}, {@code :} or another backslash; ...). UTF-8,
 * not {@code Properties}' Latin-1: a file is written by people, in today's editors. A key set twice is an error
 * naming both lines. A line in error is reported and left out, and reading goes on, so that every one is named.
 */
final class PropertiesReader {
    /** One entry and where it was read. */
    record Entry(String key, String value, String where) {
    }

    private PropertiesReader() {
    }

    /** Reads a file, keeping the lines in error in {@code problems} (and leaving them out). */
    static List<Entry> read(Path file, Problems problems) {
        try (InputStream in = Files.newInputStream(file)) {
            return read(file.getFileName().toString(), in, problems);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file + ": " + e.getMessage(), e);
        }
    }

    /**
     * Reads a stream; throws every line in error at once. {@code name}: how messages call the source
     * ("ferry.properties", "ferry.properties (class path)").
     */
    static List<Entry> read(String name, InputStream in) {
        Problems problems = new Problems();
        List<Entry> entries = read(name, in, problems);
        problems.throwIfAny();
        return entries;
    }

    /** As {@link #read(String, InputStream)}, keeping the lines in error in {@code problems}. */
    static List<Entry> read(String name, InputStream in, Problems problems) {
        List<Entry> entries = new ArrayList<>();
        Map<String, Integer> firstLine = new HashMap<>();
        try (BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
            String line;
            int number = 0;
            while ((line = reader.readLine()) != null) {
                number++;
                int startLine = number;
                String text = line.strip();
                if (text.isEmpty() || text.startsWith("#") || text.startsWith("!")) {
                    continue;
                }
                StringBuilder logical = new StringBuilder();
                while (continues(text) && (line = reader.readLine()) != null) {
                    number++;
                    logical.append(text, 0, text.length() - 1);
                    text = line.strip();
                }
                logical.append(text);
                String where = name + ":" + startLine;
                Entry entry = problems.attemptValue(() -> entry(logical, where));
                if (entry == null) {
                    continue;
                }
                Integer before = firstLine.putIfAbsent(entry.key(), startLine);
                if (before != null) {
                    problems.add(startLine, where + ": " + entry.key() + " is set again (first at line " + before
                            + ")");
                    continue;
                }
                entries.add(entry);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + name + ": " + e.getMessage(), e);
        }
        return entries;
    }

    private static Entry entry(CharSequence logical, String where) {
        int separator = separator(logical);
        if (separator < 0) {
            throw new IllegalArgumentException(where + ": '" + logical + "' (expected: key=value)");
        }
        String text = logical.toString();
        return new Entry(unescape(text.substring(0, separator).strip(), where),
                unescape(text.substring(separator + 1).strip(), where), where);
    }

    private static int separator(CharSequence text) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '\\') {
                i++; // an escaped character is part of the key
            } else if (c == '=' || c == ':') {
                return i;
            }
        }
        return -1;
    }

    /** An odd number of trailing backslashes continues the line; an even number are escaped backslashes. */
    private static boolean continues(String text) {
        int n = 0;
        for (int i = text.length() - 1; i >= 0 && text.charAt(i) == '\\'; i--) {
            n++;
        }
        return n % 2 == 1;
    }

    /** java.util.Properties' escapes: \\uXXXX, \\t, \\n, \\r, \\f, and a backslash before any other character. */
    private static String unescape(String text, String where) {
        if (text.indexOf('\\') < 0) {
            return text;
        }
        StringBuilder out = new StringBuilder(text.length());
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c != '\\' || i + 1 == text.length()) {
                out.append(c);
                continue;
            }
            char next = text.charAt(++i);
            switch (next) {
                case 't' -> out.append('\t');
                case 'n' -> out.append('\n');
                case 'r' -> out.append('\r');
                case 'f' -> out.append('\f');
                case 'u' -> {
                    try {
                        out.append((char) Integer.parseInt(text.substring(i + 1, i + 5), 16));
                    } catch (NumberFormatException | StringIndexOutOfBoundsException e) {
                        throw new IllegalArgumentException(where + ": '" + text + "' (expected: \\u and four hex "
                                + "digits)");
                    }
                    i += 4;
                }
                default -> out.append(next);
            }
        }
        return out.toString();
    }
}
