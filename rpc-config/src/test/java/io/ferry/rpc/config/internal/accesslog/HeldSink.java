package io.ferry.rpc.config.internal.accesslog;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * A sink that keeps its lines and can be held: while held, a write waits until {@link #release()}, as a stalled disk
 * would, so a test can fill the writer's queue and see what the business threads do.
 */
final class HeldSink implements AccessLogSink {
    private final List<String> lines = new ArrayList<>();
    private volatile CountDownLatch gate = new CountDownLatch(0);
    private volatile CountDownLatch entered = new CountDownLatch(1);
    private volatile boolean closed;
    private volatile int flushes;

    /** From now on, writes wait for {@link #release()}. */
    void hold() {
        entered = new CountDownLatch(1);
        gate = new CountDownLatch(1);
    }

    void release() {
        gate.countDown();
    }

    /** Waits until the writer is inside a write (held there, if held); false after 10 s. */
    boolean awaitWriting() throws InterruptedException {
        return entered.await(10, TimeUnit.SECONDS);
    }

    @Override
    public void write(String line) {
        entered.countDown();
        try {
            gate.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        synchronized (lines) {
            lines.add(line);
        }
    }

    @Override
    public void flush() {
        flushes++;
    }

    @Override
    public void close() {
        closed = true;
    }

    List<String> lines() {
        synchronized (lines) {
            return List.copyOf(lines);
        }
    }

    boolean closed() {
        return closed;
    }

    int flushes() {
        return flushes;
    }

    /** Lines whose method is {@code m<number>}, in order, as the writer test's records name them. */
    List<String> methods() {
        List<String> methods = new ArrayList<>();
        for (String line : lines()) {
            int at = line.indexOf(" method=");
            methods.add(line.substring(at + 8, line.indexOf(' ', at + 8)));
        }
        return methods;
    }
}
