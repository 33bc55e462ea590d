package io.ferry.rpc.testkit;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * What this JVM writes to standard error while open, still passed on to the real stream: slf4j-simple (the tests'
 * binding) looks {@code System.err} up for every line, so the log lines of every thread land here.
 */
public final class StandardErrorLines implements AutoCloseable {
    private final PrintStream original = System.err;
    private final ByteArrayOutputStream captured = new ByteArrayOutputStream();

    /** Starts capturing; {@link #close()} puts the real stream back. */
    public StandardErrorLines() {
        System.setErr(new PrintStream(new OutputStream() {
            @Override
            public void write(int b) {
                synchronized (captured) {
                    captured.write(b);
                }
                original.write(b);
            }

            @Override
            public void write(byte[] b, int off, int len) {
                synchronized (captured) {
                    captured.write(b, off, len);
                }
                original.write(b, off, len);
            }
        }, true, StandardCharsets.UTF_8));
    }

    /** The lines so far that contain {@code text}. */
    public List<String> containing(String text) {
        String all;
        synchronized (captured) {
            all = captured.toString(StandardCharsets.UTF_8);
        }
        return Arrays.stream(all.split("\n")).filter(line -> line.contains(text)).toList();
    }

    /**
     * The first line containing each of {@code texts}, each found after the one before it: fails naming the first
     * text missing from that point on, so a test can pin the order of log lines.
     */
    public List<String> inOrder(String... texts) {
        List<String> lines = containing("");
        List<String> found = new ArrayList<>();
        int from = 0;
        for (String text : texts) {
            int at = from;
            while (at < lines.size() && !lines.get(at).contains(text)) {
                at++;
            }
            if (at == lines.size()) {
                throw new AssertionError("no line containing '" + text + "' after " + found + " in:\n"
                        + String.join("\n", lines));
            }
            found.add(lines.get(at));
            from = at + 1;
        }
        return found;
    }

    @Override
    public void close() {
        System.setErr(original);
    }
}
