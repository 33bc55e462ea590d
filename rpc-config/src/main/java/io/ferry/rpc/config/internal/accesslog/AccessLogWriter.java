package io.ferry.rpc.config.internal.accesslog;

import io.ferry.rpc.Ticker;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Takes the calls' records off the business threads and writes them on one thread of its own: a business thread
 * only puts a record into a bounded queue, and when the queue is full (the disk or the logger is slow) the record is
 * dropped and counted, never waited for. The thread ({@code ferry-accesslog-N}, a daemon) starts with the first
 * record; it formats and writes in batches, flushes when the queue runs empty and at least every second, and reports
 * drops at WARN at most once every {@value #DROP_REPORT_SECONDS} seconds, with the number since the last report.
 * {@link #close()} writes what is queued, flushes and closes the sink. Thread-safe.
 */
public final class AccessLogWriter implements AutoCloseable {
    /** Records waiting at most: a burst this long while the disk stalls costs memory, not threads. */
    public static final int CAPACITY = 8192;
    static final long DROP_REPORT_SECONDS = 10;
    private static final long FLUSH_NANOS = TimeUnit.SECONDS.toNanos(1);
    private static final int BATCH = 256;
    private static final long CLOSE_WAIT_MILLIS = 5000;
    /** Queued by close() to wake the writer at once rather than at its next flush. */
    private static final AccessRecord WAKE = new AccessRecord(0, 0, null, null, null, null, null, null);
    private static final AtomicInteger THREADS = new AtomicInteger();
    private static final Logger log = LoggerFactory.getLogger(AccessLogWriter.class);

    private final String name;
    private final AccessLogSink sink;
    private final ArrayBlockingQueue<AccessRecord> queue;
    private final Ticker ticker;
    private final AtomicLong dropped = new AtomicLong();
    private volatile Thread thread;
    private volatile boolean closed;
    // the writer thread's alone
    private long reported;
    private long lastReport;
    private boolean everReported;
    private String lastError;

    /**
     * @param name     the destination, as reports name it
     * @param capacity records that may wait for the writer
     * @param ticker   times the flushes and the drop reports
     */
    public AccessLogWriter(String name, AccessLogSink sink, int capacity, Ticker ticker) {
        this.name = name;
        this.sink = sink;
        this.queue = new ArrayBlockingQueue<>(capacity);
        this.ticker = ticker;
    }

    /** Queues {@code record} for the writer, or drops and counts it when the queue is full; never waits. */
    public void offer(AccessRecord record) {
        if (thread == null) {
            start();
        }
        if (closed || !queue.offer(record)) {
            dropped.incrementAndGet();
        }
    }

    /**
     * Lines dropped since this writer was made: records that found the queue full or came after close, and lines
     * the sink failed to write. For the metrics to come; also reported at WARN.
     */
    public long dropped() {
        return dropped.get();
    }

    private synchronized void start() {
        if (thread == null && !closed) {
            Thread t = new Thread(this::run, "ferry-accesslog-" + THREADS.incrementAndGet());
            t.setDaemon(true);
            t.start();
            thread = t;
        }
    }

    private void run() {
        List<AccessRecord> batch = new ArrayList<>(BATCH);
        long lastFlush = ticker.nanoTime();
        boolean unflushed = false;
        try {
            while (!closed || !queue.isEmpty()) {
                AccessRecord first = queue.poll(FLUSH_NANOS, TimeUnit.NANOSECONDS);
                if (first != null) {
                    batch.add(first);
                    queue.drainTo(batch, BATCH - 1);
                    unflushed |= write(batch);
                    batch.clear();
                }
                long now = ticker.nanoTime();
                if (unflushed && (queue.isEmpty() || now - lastFlush >= FLUSH_NANOS)) {
                    flush();
                    lastFlush = now;
                    unflushed = false;
                }
                reportDrops(now, false);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            flush();
            closeSink();
            reportDrops(ticker.nanoTime(), true);
        }
    }

    /** Writes the batch's lines; returns whether any was written. */
    private boolean write(List<AccessRecord> batch) {
        boolean wrote = false;
        for (AccessRecord record : batch) {
            if (record == WAKE) {
                continue;
            }
            try {
                sink.write(AccessLogLine.format(record));
                wrote = true;
            } catch (Exception e) { // the thread must outlive a full disk: count the line and go on
                dropped.incrementAndGet();
                lastError = e.toString();
            }
        }
        return wrote;
    }

    private void flush() {
        try {
            sink.flush();
        } catch (Exception e) {
            lastError = e.toString();
        }
    }

    private void closeSink() {
        try {
            sink.close();
        } catch (Exception e) {
            log.warn("access log {}: closing it failed: {}", name, e.toString());
        }
    }

    private void reportDrops(long now, boolean last) {
        long total = dropped.get();
        if (total == reported || !last && everReported
                && now - lastReport < TimeUnit.SECONDS.toNanos(DROP_REPORT_SECONDS)) {
            return;
        }
        log.warn("access log {}: {} line(s) not written since the last report ({} in all): {}", name,
                total - reported, total, lastError != null ? "last error: " + lastError
                        : "the writer fell behind the calls (a slow disk or logger?)");
        reported = total;
        lastReport = now;
        everReported = true;
        lastError = null;
    }

    /**
     * Writes what is queued, flushes and closes the sink, waiting up to 5 s for a slow one; records offered after
     * this are dropped and counted. Idempotent.
     */
    @Override
    public void close() {
        Thread writer;
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            writer = thread;
        }
        if (writer == null) { // never used: only the sink to release
            closeSink();
            return;
        }
        queue.offer(WAKE); // a full queue needs no waking
        try {
            writer.join(CLOSE_WAIT_MILLIS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (writer.isAlive()) {
            log.warn("access log {}: still writing {} ms after close, {} line(s) queued; left to finish alone", name,
                    CLOSE_WAIT_MILLIS, queue.size());
        }
    }

    @Override
    public String toString() {
        return "access log " + name + " (" + queue.size() + " queued, " + dropped.get() + " dropped)";
    }
}
