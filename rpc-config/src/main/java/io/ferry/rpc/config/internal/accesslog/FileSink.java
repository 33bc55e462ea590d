package io.ferry.rpc.config.internal.accesslog;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/** Lines appended to a file in UTF-8, buffered; the writer thread flushes it. */
final class FileSink implements AccessLogSink {
    private static final int BUFFER = 64 * 1024;

    private final BufferedWriter out;

    /**
     * Opens {@code file} for append, creating it and its parent directories.
     *
     * @throws IOException when it cannot be created or opened
     */
    FileSink(Path file) throws IOException {
        Path parent = file.getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        this.out = new BufferedWriter(new OutputStreamWriter(Files.newOutputStream(file, StandardOpenOption.CREATE,
                StandardOpenOption.APPEND, StandardOpenOption.WRITE), StandardCharsets.UTF_8), BUFFER);
    }

    @Override
    public void write(String line) throws IOException {
        out.write(line);
        out.write('\n');
    }

    @Override
    public void flush() throws IOException {
        out.flush();
    }

    @Override
    public void close() throws IOException {
        out.close();
    }
}
