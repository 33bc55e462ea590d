package io.ferry.rpc.remoting.internal.liveness;

import java.util.function.DoubleSupplier;

/**
 * When a consumer connection should send a heartbeat, and when it should give up on its peer. Time is a
 * parameter: every method takes {@code now} in nanoseconds, so tests drive it with a fake clock.
 *
 * <pre>
 *  read ──────── idle ─────────► heartbeat ── idle ──► heartbeat ...      3 × interval without a read: CLOSE
 *        threshold drawn anew each cycle, uniform in [0.5, 1.5) × interval
 * </pre>
 *
 * A heartbeat goes out only after the connection has been idle (no reads) for this cycle's threshold. The
 * threshold is drawn again on <em>every</em> cycle, not only once: an event that puts many connections in step (a
 * provider's GC pause, a network blip, a mass reconnect) makes their reads arrive together, and with a fixed
 * threshold their heartbeats would then stay together forever. A fresh draw each cycle spreads them over a whole
 * interval within one cycle.
 *
 * <p>A call that times out with nothing read since it was written is a sign of a path that drops packets (a
 * partition, a dead peer behind a stateful firewall): the connection pings at once, and closes if nothing at all is
 * read within the ping's bound, so that it reconnects now rather than after three heartbeat intervals. Without this,
 * a provider ejected during a partition would be probed after the heal over the same connection, whose unanswered
 * bytes sit in TCP's retransmission back-off (seconds to minutes): the probe would time out too, and the ejection
 * double. Not thread-safe: one per connection, used on its event loop.
 */
public final class KeepAlive {
    /** What to do now. */
    public enum Action {
        NONE,
        SEND_HEARTBEAT,
        /** Three intervals without a read. */
        CLOSE,
        /** A call timed out with nothing read since it was written, and the ping that followed got no answer. */
        CLOSE_SILENT
    }

    private final long intervalNanos;
    private final double jitter;
    private final DoubleSupplier random;
    private long lastRead;
    private long cycleStart;
    private long threshold;
    /** Whether a ping after a silent timeout waits for its answer (any read), and until when. */
    private boolean pinging;
    private long pingDeadline;

    /**
     * @param random uniform in [0, 1); {@code ThreadLocalRandom.current()::nextDouble} in production
     */
    public KeepAlive(long intervalNanos, long now, DoubleSupplier random) {
        this(intervalNanos, 0.5, now, random);
    }

    /**
     * @param jitter thresholds are drawn in [1 - jitter, 1 + jitter) x interval; 0 gives a fixed threshold (all
     *               connections that a stall put in step stay in step: Dubbo's behaviour, for experiments)
     */
    public KeepAlive(long intervalNanos, double jitter, long now, DoubleSupplier random) {
        if (intervalNanos <= 0) {
            throw new IllegalArgumentException("heartbeat: " + intervalNanos + "ns (expected: > 0)");
        }
        if (jitter < 0 || jitter >= 1) {
            throw new IllegalArgumentException("heartbeatJitter: " + jitter + " (expected: 0 <= jitter < 1)");
        }
        this.jitter = jitter;
        this.intervalNanos = intervalNanos;
        this.random = random;
        this.lastRead = now;
        newCycle(now);
    }

    private void newCycle(long now) {
        cycleStart = now;
        threshold = (long) (intervalNanos * (1 - jitter + 2 * jitter * random.getAsDouble()));
    }

    /** Something arrived from the peer. */
    public void onRead(long now) {
        lastRead = now;
        pinging = false;
    }

    /**
     * A call written {@code sentNanosAgo} ago has just timed out. If nothing was read since it was written, returns
     * {@link Action#SEND_HEARTBEAT}: a ping to send now, which must be answered (by anything read) within
     * {@code answerWithinNanos}, or {@link #check} says {@link Action#CLOSE_SILENT}. A read since the call, or a ping
     * already waiting, says {@link Action#NONE}.
     */
    public Action callTimedOut(long now, long sentNanosAgo, long answerWithinNanos) {
        if (pinging || now - lastRead < sentNanosAgo) {
            return Action.NONE;
        }
        pinging = true;
        pingDeadline = now + answerWithinNanos;
        return Action.SEND_HEARTBEAT;
    }

    /** Decides what to do at {@code now}; a heartbeat decision also starts the next cycle. */
    public Action check(long now) {
        if (now - lastRead >= 3 * intervalNanos) {
            return Action.CLOSE;
        }
        if (pinging && now - pingDeadline >= 0) {
            return Action.CLOSE_SILENT;
        }
        if (lastRead > cycleStart) {
            newCycle(lastRead); // a read ended the cycle: the idle clock restarts from it
        }
        if (now - cycleStart >= threshold) {
            newCycle(now);
            return Action.SEND_HEARTBEAT;
        }
        return Action.NONE;
    }

    /** Nanoseconds from {@code now} until the next {@link #check} could act. */
    public long nextCheckIn(long now) {
        long heartbeatAt = Math.max(cycleStart, lastRead) + threshold;
        long closeAt = lastRead + 3 * intervalNanos;
        if (pinging) {
            closeAt = Math.min(closeAt, pingDeadline);
        }
        return Math.max(1, Math.min(heartbeatAt, closeAt) - now);
    }
}
