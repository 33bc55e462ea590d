package io.ferry.rpc;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * The absolute point in time by which a call must end, computed once from its timeout where the call starts and
 * carried unchanged through filters, retries and the wait for a connection: each hop asks what is left instead of
 * recomputing a relative timeout. It remembers the timeout it was made from, so messages can say "within 1000 ms"
 * however much was left when the time ran out. Immutable and thread-safe.
 */
public final class Deadline {
    private static final Deadline NONE = new Deadline(Ticker.system(), 0, Long.MAX_VALUE);

    private final Ticker ticker;
    private final long startNanos;
    private final long timeoutNanos;

    private Deadline(Ticker ticker, long startNanos, long timeoutNanos) {
        this.ticker = ticker;
        this.startNanos = startNanos;
        this.timeoutNanos = timeoutNanos;
    }

    /** A deadline {@code timeout} from now on {@code ticker}. */
    public static Deadline after(Duration timeout, Ticker ticker) {
        return afterNanos(timeout.toNanos(), ticker);
    }

    /** A deadline {@code timeoutNanos} from now on {@code ticker}; must be positive. */
    public static Deadline afterNanos(long timeoutNanos, Ticker ticker) {
        if (timeoutNanos <= 0) {
            throw new IllegalArgumentException("timeout: " + TimeUnit.NANOSECONDS.toMillis(timeoutNanos)
                    + "ms (expected: > 0)");
        }
        return new Deadline(ticker, ticker.nanoTime(), timeoutNanos);
    }

    /**
     * A deadline {@code timeoutNanos} after {@code startNanos}, a reading of {@code ticker} taken earlier (a request's
     * arrival, when its deadline is worked out later).
     */
    public static Deadline startingAt(long startNanos, long timeoutNanos, Ticker ticker) {
        return new Deadline(ticker, startNanos, Math.max(0, timeoutNanos));
    }

    /** No deadline: never expires (a provider request whose consumer sent no remaining time). */
    public static Deadline none() {
        return NONE;
    }

    public boolean isNone() {
        return this == NONE;
    }

    /** The timeout this deadline was made from. */
    public Duration timeout() {
        return Duration.ofNanos(timeoutNanos);
    }

    public long timeoutMillis() {
        return TimeUnit.NANOSECONDS.toMillis(timeoutNanos);
    }

    /** Time left, never negative; {@link Long#MAX_VALUE} for {@link #none()}. */
    public long remainingNanos() {
        if (isNone()) {
            return Long.MAX_VALUE;
        }
        return Math.max(0, timeoutNanos - elapsedNanos());
    }

    /** Whole milliseconds left, rounded up so that a call with any time left never reports 0. */
    public long remainingMillis() {
        long nanos = remainingNanos();
        return nanos == Long.MAX_VALUE ? Long.MAX_VALUE : (nanos + 999_999) / 1_000_000;
    }

    /** Time since the deadline was made. */
    public long elapsedNanos() {
        return ticker.nanoTime() - startNanos;
    }

    public long elapsedMillis() {
        return TimeUnit.NANOSECONDS.toMillis(elapsedNanos());
    }

    public boolean isExpired() {
        return !isNone() && elapsedNanos() >= timeoutNanos;
    }

    /** Whichever of the two ends first (a nested call bounded by the call it serves). */
    public Deadline earlier(Deadline other) {
        if (other == null || other.isNone()) {
            return this;
        }
        if (isNone()) {
            return other;
        }
        return other.remainingNanos() < remainingNanos() ? other : this;
    }

    @Override
    public String toString() {
        return isNone() ? "no deadline" : "deadline of " + timeoutMillis() + " ms, "
                + TimeUnit.NANOSECONDS.toMillis(remainingNanos()) + " ms left";
    }
}
