package io.ferry.rpc.config.internal.accesslog;

import io.ferry.rpc.Ticker;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One Ferry's access-log writers, one per destination, shared by every service that names it, and closed with the
 * Ferry once its server has answered its last call. Thread-safe.
 */
public final class AccessLogs implements AutoCloseable {
    /** Opens a sink for a destination; tests pass one of their own. */
    @FunctionalInterface
    public interface Opener {
        AccessLogSink open(AccessLogDestination destination) throws IOException;
    }

    private final Opener opener;
    private final int capacity;
    private final Ticker ticker;
    private final Map<AccessLogDestination, AccessLogWriter> writers = new LinkedHashMap<>();
    private boolean closed;

    /** The real ones: the logger, or files. */
    public AccessLogs(Ticker ticker) {
        this(AccessLogs::openSink, AccessLogWriter.CAPACITY, ticker);
    }

    public AccessLogs(Opener opener, int capacity, Ticker ticker) {
        this.opener = opener;
        this.capacity = capacity;
        this.ticker = ticker;
    }

    private static AccessLogSink openSink(AccessLogDestination destination) throws IOException {
        return destination.isLogger() ? new LoggerSink() : new FileSink(destination.file());
    }

    /**
     * The writer for {@code destination}, opening it (a file: created with its parent directories) on first use.
     *
     * @param where where the option was set, for the message
     * @throws IllegalArgumentException naming the option and the file when it cannot be opened
     */
    public synchronized AccessLogWriter writer(AccessLogDestination destination, String where) {
        if (closed) {
            throw new IllegalStateException("this Ferry bootstrap is closed");
        }
        AccessLogWriter writer = writers.get(destination);
        if (writer == null) {
            AccessLogSink sink;
            try {
                sink = opener.open(destination);
            } catch (IOException | RuntimeException e) {
                throw new IllegalArgumentException((where.isEmpty() ? "" : where + ": ") + "accesslog: cannot open "
                        + destination + " for append: " + e + " (expected: a file this process may create and "
                        + "append to)", e);
            }
            writer = new AccessLogWriter(destination.toString(), sink, capacity, ticker);
            writers.put(destination, writer);
        }
        return writer;
    }

    /**
     * Access-log lines this Ferry did not write, over all its destinations: dropped when a writer fell behind, or
     * failed to write. The metrics to come read it here.
     */
    public synchronized long droppedLines() {
        return writers.values().stream().mapToLong(AccessLogWriter::dropped).sum();
    }

    /** Writes what is queued and closes every writer. Idempotent. */
    @Override
    public void close() {
        List<AccessLogWriter> toClose;
        synchronized (this) {
            closed = true;
            toClose = new ArrayList<>(writers.values());
        }
        toClose.forEach(AccessLogWriter::close);
    }
}
