package io.ferry.rpc.config.internal.accesslog;

import java.io.IOException;

/**
 * Where formatted lines go, on the access log's writer thread only (so an implementation needs no locking):
 * the logger, a file, or a test's. It may block; nothing but the writer thread waits for it.
 */
public interface AccessLogSink {
    /** Writes one line (no line separator in it). */
    void write(String line) throws IOException;

    /** Makes the lines written so far visible (to the disk's cache, for a file). */
    void flush() throws IOException;

    /** Flushes and releases the sink; called once, last. */
    void close() throws IOException;
}
