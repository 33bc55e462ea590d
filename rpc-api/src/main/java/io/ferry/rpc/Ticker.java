package io.ferry.rpc;

/**
 * A source of monotonic time in nanoseconds, injected wherever a decision depends on time so that tests can move a
 * fake clock instead of sleeping. Only differences between two readings mean anything.
 */
@FunctionalInterface
public interface Ticker {
    long nanoTime();

    /** {@link System#nanoTime()}. */
    static Ticker system() {
        return System::nanoTime;
    }
}
