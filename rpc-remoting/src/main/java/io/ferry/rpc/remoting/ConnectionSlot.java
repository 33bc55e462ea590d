package io.ferry.rpc.remoting;

import io.ferry.rpc.RpcException;
import io.ferry.rpc.RpcStatus;
import io.ferry.rpc.remoting.internal.exchange.Connection;
import io.ferry.rpc.remoting.internal.liveness.Backoff;
import io.netty.channel.EventLoop;
import io.netty.util.concurrent.ScheduledFuture;

import java.net.InetSocketAddress;
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
 * attempt under way within their own deadline. The initial delay of a spread first connect is skipped by the
 * first call that needs the connection; back-off delays are not.
 */
final class ConnectionSlot {
    private final ClientTransport transport;
    private final InetSocketAddress address;
    private final ClientOptions options;
    private final EventLoop loop;
    private final Backoff backoff;
    private volatile CompletableFuture<Connection> ready;
    private CompletableFuture<Connection> next;
    private ScheduledFuture<?> scheduled;
    private boolean skippable;
    private int failures;
    private long lastAttemptNanos;
    private boolean closed;

    ConnectionSlot(ClientTransport transport, InetSocketAddress address, ClientOptions options, EventLoop loop) {
        this.transport = transport;
        this.address = address;
        this.options = options;
        this.loop = loop;
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
            CompletableFuture<Connection> waiting = next;
            scheduled = null;
            if (delay == 0) {
                attemptNow();
            } else {
                scheduled = loop.schedule(() -> {
                    synchronized (this) {
                        if (!closed && next == waiting && scheduled != null) {
                            attemptNow();
                        }
                    }
                }, delay, TimeUnit.NANOSECONDS);
            }
        }
    }

    synchronized boolean isClosed() {
        return closed;
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
            if (scheduled != null && (skippable || System.nanoTime() - lastAttemptNanos
                    >= options.reconnectBackoffMin().toNanos()) && scheduled.cancel(false)) {
                // a call needs the connection: try now instead of waiting out the spread or the back-off, but no
                // more often than the minimum back-off (demand is spread over time; a herd of idle slots is not)
                attemptNow();
            }
            return attempt;
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
        lastAttemptNanos = System.nanoTime();
        scheduled = null;
        skippable = false;
        CompletableFuture<Connection> attempt = next;
        transport.connect(address, options, loop).whenComplete((c, e) -> attempted(attempt, c, e));
    }

    private void attempted(CompletableFuture<Connection> attempt, Connection connection, Throwable error) {
        boolean wasClosed;
        synchronized (this) {
            wasClosed = closed;
            if (!closed) {
                next = null;
                if (error == null) {
                    failures = 0;
                    ready = CompletableFuture.completedFuture(connection);
                    connection.channel().closeFuture().addListener(f -> lost(connection));
                } else {
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
