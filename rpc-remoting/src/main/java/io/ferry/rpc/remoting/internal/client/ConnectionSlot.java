package io.ferry.rpc.remoting.internal.client;

import io.ferry.rpc.RpcException;
import io.ferry.rpc.RpcStatus;
import io.ferry.rpc.Ticker;
import io.ferry.rpc.remoting.ClientOptions;
import io.ferry.rpc.remoting.ConnectionInfo;
import io.ferry.rpc.remoting.internal.exchange.Connection;
import io.ferry.rpc.remoting.internal.liveness.Backoff;
import io.netty.channel.EventLoop;
import io.netty.util.concurrent.ScheduledFuture;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * One connection's place in a client, pinned to one event loop so a client's connections stay on distinct IO
 * threads across reconnects.
 *
 * <pre>
 *   (lazy) ──first call──► CONNECTING ──ready (ping answered)──► READY ──closed──► BACKOFF ──delay──► CONNECTING
 *   (eager, spread) ─random delay, or a call─┘     └──failed──► BACKOFF (delay doubles, full jitter, max 5 s) 
 * </pre>
 *
 * A connection counts as ready only once a heartbeat has made the round trip, so a connection the kernel accepted
 * but the provider never took off its accept queue never carries a call. After a failure or a loss the slot keeps
 * reconnecting in the background, with exponential back-off and full jitter; callers meanwhile wait for the
 * attempt under way within their own deadline. A call that needs the connection while no attempt is in flight
 * starts one at once (the spread's initial delay, or a back-off delay, is cut short), at most once per minimum
 * back-off interval. Times (the gap since the last attempt, the age of the last failure, the last pick) are read
 * from the client's {@link Ticker}; delays run on the event loop.
 */
final class ConnectionSlot {
    private final ClientResources resources;
    private final InetSocketAddress address;
    private final ClientOptions options;
    private final EventLoop loop;
    private final Backoff backoff;
    private final Runnable onWritable;
    private final Ticker ticker;
    private volatile CompletableFuture<Connection> ready;
    /** When a call last picked this slot's connection (an elastic pool lets idle extras go). */
    volatile long lastPickedNanos;
    private CompletableFuture<Connection> next;
    private ScheduledFuture<?> scheduled;
    private boolean skippable;
    private int failures;
    private boolean attemptInFlight;
    private Throwable lastFailure;
    private long lastFailureNanos;
    private long lastAttemptNanos;
    private boolean closed;

    /** {@code onWritable} runs on the IO thread each time the connection becomes writable again. */
    ConnectionSlot(ClientResources resources, InetSocketAddress address, ClientOptions options, EventLoop loop,
                   Runnable onWritable) {
        this.onWritable = onWritable;
        this.resources = resources;
        this.address = address;
        this.options = options;
        this.loop = loop;
        this.ticker = resources.ticker();
        this.lastPickedNanos = ticker.nanoTime();
        this.backoff = new Backoff(options.reconnectBackoffMin().toNanos(), options.reconnectBackoffMax().toNanos(),
                () -> ThreadLocalRandom.current().nextDouble());
    }

    /** Starts connecting in the background, after a delay drawn in [0, spread). */
    synchronized void connectSoon(long spreadNanos) {
        if (!closed && next == null && ready == null) {
            long delay = spreadNanos > 0 ? ThreadLocalRandom.current().nextLong(spreadNanos) : 0;
            scheduleAttempt(delay, true);
        }
    }

    /**
     * The registry announced this provider again (a restart): if not connected, forget the back-off and try again
     * at a random moment within {@code spreadNanos}, instead of waiting out its back-off delay.
     */
    synchronized void reconnectSoon(long spreadNanos) {
        if (closed || (ready != null && ready.join().isActive())) {
            return;
        }
        failures = 0;
        if (next != null && scheduled != null && scheduled.cancel(false)) {
            long delay = spreadNanos > 0 ? ThreadLocalRandom.current().nextLong(spreadNanos) : 0;
            scheduled = null;
            if (delay == 0) {
                attemptNow();
            } else {
                scheduleNext(delay);
            }
        }
    }

    /** Schedules the attempt whose future is already handed out ({@code next}). */
    private void scheduleNext(long delayNanos) {
        CompletableFuture<Connection> waiting = next;
        scheduled = loop.schedule(() -> {
            synchronized (this) {
                if (!closed && next == waiting && scheduled != null) {
                    attemptNow();
                }
            }
        }, delayNanos, TimeUnit.NANOSECONDS);
    }

    /**
     * Why this slot is known not to connect now: its last attempt failed and no other is under way (it is backing
     * off), so a call may fail at once instead of waiting; null when connected, connecting, or never tried.
     */
    synchronized String knownUnreachable() {
        if (closed || attemptInFlight || lastFailure == null || (ready != null && ready.join().isActive())) {
            return null;
        }
        return "the last attempt, " + TimeUnit.NANOSECONDS.toMillis(ticker.nanoTime() - lastFailureNanos)
                + " ms ago, failed: " + lastFailure.getMessage();
    }

    synchronized boolean isClosed() {
        return closed;
    }

    /** The ready connection's (completed) future, or null when not connected: no lock, for the call path. */
    CompletableFuture<Connection> readyNow() {
        CompletableFuture<Connection> r = ready;
        return r != null && r.join().isActive() ? r : null;
    }

    /** The ready connection, or the future of the attempt under way (or scheduled). */
    CompletableFuture<Connection> connection() {
        CompletableFuture<Connection> r = ready;
        if (r != null && r.join().isActive()) {
            return r;
        }
        synchronized (this) {
            if (closed) {
                return CompletableFuture.failedFuture(RpcException.notExecuted(RpcStatus.ILLEGAL_STATE,
                        "client of " + address + " is closed", null));
            }
            r = ready;
            if (r != null && r.join().isActive()) {
                return r;
            }
            // Return the attempt's own future, never the field read again: an attempt can complete (and clear the
            // field) before attemptNow() returns, when connect and readiness ping beat the callback's registration.
            if (next == null) {
                return scheduleAttempt(0, false);
            }
            CompletableFuture<Connection> attempt = next;
            if (scheduled != null) {
                pullForward();
            }
            return attempt;
        }
    }

    /**
     * A call needs the connection and no attempt is in flight: try now instead of waiting out the spread or the
     * back-off, but no more often than the minimum back-off, so callers that wait through refused attempts do not
     * turn into a connect loop. When the last attempt was too recent, the next one moves to the earliest moment
     * allowed: a provider that listens again is found within about that minimum.
     */
    private void pullForward() {
        long delay = pullForwardDelay(skippable, ticker.nanoTime() - lastAttemptNanos,
                options.reconnectBackoffMin().toNanos(), scheduled.getDelay(TimeUnit.NANOSECONDS));
        if (delay >= 0 && scheduled.cancel(false)) {
            if (delay == 0) {
                attemptNow();
            } else {
                scheduleNext(delay);
            }
        }
    }

    /**
     * When the attempt scheduled {@code scheduledDelayNanos} from now should run instead, for a call that needs
     * the connection: 0 for now, a positive delay to move it to, or -1 to leave it. Time is a parameter, so the
     * rule is tested without a clock.
     *
     * @param skippable      the scheduled attempt is a first connect's random spread, not a back-off
     * @param sinceLastNanos time since the last attempt started
     * @param minGapNanos    the minimum back-off: attempts pulled forward are at least this far apart
     */
    static long pullForwardDelay(boolean skippable, long sinceLastNanos, long minGapNanos, long scheduledDelayNanos) {
        if (skippable || sinceLastNanos >= minGapNanos) {
            return 0;
        }
        long earliest = minGapNanos - sinceLastNanos;
        return scheduledDelayNanos > earliest ? earliest : -1;
    }

    EventLoop loop() {
        return loop;
    }

    /** This slot's connection for the connection view, or where it stands when it has none. */
    ConnectionInfo snapshot(boolean draining) {
        Connection c = current();
        if (c != null) {
            return c.snapshot(draining ? ConnectionInfo.State.DRAINING
                    : c.isReadonly() ? ConnectionInfo.State.READONLY : ConnectionInfo.State.READY);
        }
        boolean connecting;
        synchronized (this) {
            connecting = attemptInFlight;
        }
        return new ConnectionInfo("-", address.getHostString() + ":" + address.getPort(), "-",
                connecting ? ConnectionInfo.State.CONNECTING : ConnectionInfo.State.CLOSED, 0, 0, Duration.ZERO,
                null, Duration.ZERO);
    }

    /** What {@link #snapshot} would say of this slot's state, without the rest: for counts of connections by state. */
    ConnectionInfo.State state(boolean draining) {
        Connection c = current();
        if (c != null) {
            return !c.isActive() ? ConnectionInfo.State.CLOSED : draining ? ConnectionInfo.State.DRAINING
                    : c.isReadonly() ? ConnectionInfo.State.READONLY : ConnectionInfo.State.READY;
        }
        synchronized (this) {
            return attemptInFlight ? ConnectionInfo.State.CONNECTING : ConnectionInfo.State.CLOSED;
        }
    }

    /** The ready connection now, else null. */
    Connection current() {
        CompletableFuture<Connection> r = ready;
        return r == null ? null : r.join();
    }

    /** Starts (or schedules) an attempt; returns its future. */
    private CompletableFuture<Connection> scheduleAttempt(long delayNanos, boolean initial) {
        CompletableFuture<Connection> attempt = new CompletableFuture<>();
        next = attempt;
        skippable = initial;
        if (delayNanos <= 0) {
            attemptNow();
        } else {
            scheduled = loop.schedule(() -> {
                synchronized (this) {
                    if (!closed && scheduled != null) {
                        attemptNow();
                    }
                }
            }, delayNanos, TimeUnit.NANOSECONDS);
        }
        return attempt;
    }

    private void attemptNow() {
        attemptInFlight = true;
        lastAttemptNanos = ticker.nanoTime();
        scheduled = null;
        skippable = false;
        CompletableFuture<Connection> attempt = next;
        resources.connect(address, options, loop).whenComplete((c, e) -> attempted(attempt, c, e));
    }

    private void attempted(CompletableFuture<Connection> attempt, Connection connection, Throwable error) {
        boolean wasClosed;
        synchronized (this) {
            wasClosed = closed;
            attemptInFlight = false;
            if (!closed) {
                next = null;
                if (error == null) {
                    failures = 0;
                    lastFailure = null;
                    connection.onWritable(onWritable);
                    ready = CompletableFuture.completedFuture(connection);
                    connection.channel().closeFuture().addListener(f -> lost(connection));
                } else {
                    lastFailure = error;
                    lastFailureNanos = ticker.nanoTime();
                    scheduleAttempt(backoff.delay(++failures), false);
                }
            }
        }
        if (wasClosed) {
            if (connection != null) {
                connection.close();
            }
            attempt.completeExceptionally(RpcException.notExecuted(RpcStatus.ILLEGAL_STATE,
                    "client of " + address + " is closed", null));
        } else if (error != null) {
            attempt.completeExceptionally(error);
        } else {
            attempt.complete(connection);
        }
    }

    private void lost(Connection connection) {
        synchronized (this) {
            if (closed || ready == null || ready.join() != connection) {
                return;
            }
            ready = null;
            if (next == null) {
                scheduleAttempt(backoff.delay(0), false);
            }
        }
    }

    void close() {
        Connection current;
        CompletableFuture<Connection> pending;
        synchronized (this) {
            closed = true;
            current = current();
            ready = null;
            pending = next;
            next = null;
            if (scheduled != null) {
                scheduled.cancel(false);
                scheduled = null;
            }
        }
        if (pending != null) {
            pending.completeExceptionally(RpcException.notExecuted(RpcStatus.ILLEGAL_STATE,
                    "client of " + address + " is closed", null));
        }
        if (current != null) {
            current.close();
        }
    }
}
