package io.ferry.rpc.remoting.internal.client;

import io.ferry.rpc.Ticker;
import io.ferry.rpc.remoting.ClientOptions;
import io.ferry.rpc.remoting.ConnectionInfo;
import io.ferry.rpc.remoting.internal.exchange.Connection;
import io.netty.channel.EventLoop;
import io.netty.util.Timeout;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The connections that calls to one provider address go over, each on an IO thread of its own where the client has
 * enough. Calls only go to a ready connection that is writable (its outbound buffer below the high water mark), so
 * no connection queues without bound behind a socket the provider has stopped reading.
 *
 * <ul>
 *   <li><b>Fixed</b> ({@code connections = N}): N connections, calls spread round robin over the writable ones.</li>
 *   <li><b>Elastic</b> (the shared pool, the default): one connection, and another, up to {@code maxConnections},
 *       while every connection stays congested (see {@link PoolSizer}); a call takes the first connection, in the
 *       order they were opened, that is not congested, so under normal load only the first carries calls and
 *       extras fall idle and are let go once the load has passed. A connection let go drains: it takes no new
 *       call and closes once its pending calls are answered.</li>
 * </ul>
 */
final class ConnectionPool {
    private static final Logger log = LoggerFactory.getLogger(ConnectionPool.class);

    /** How long every connection must stay congested before an elastic pool opens another. */
    static final long GROW_AFTER_NANOS = TimeUnit.MILLISECONDS.toNanos(20);

    private final ClientResources resources;
    private final InetSocketAddress address;
    private final ClientOptions options;
    private final PoolSizer sizer;
    private final long congestedBytes;
    private final Ticker ticker;
    private final AtomicInteger next = new AtomicInteger();
    private final AtomicReference<CompletableFuture<Void>> writable = new AtomicReference<>(new CompletableFuture<>());
    private volatile ConnectionSlot[] slots;
    private volatile boolean growing;
    private final List<ConnectionSlot> draining = new ArrayList<>();
    private Timeout sizeCheck;
    private boolean closed;

    private ConnectionPool(ClientResources resources, InetSocketAddress address, ClientOptions options, int fixed) {
        this.resources = resources;
        this.address = address;
        this.options = options;
        this.ticker = resources.ticker();
        this.congestedBytes = options.socket().writeBufferLowWaterMark();
        this.sizer = fixed > 0 ? null
                : new PoolSizer(options.maxConnections(), GROW_AFTER_NANOS, options.poolIdleTimeout().toNanos());
        EventLoop[] loops = resources.nextLoops(Math.max(fixed, 1));
        ConnectionSlot[] initial = new ConnectionSlot[loops.length];
        for (int i = 0; i < initial.length; i++) {
            initial[i] = new ConnectionSlot(resources, address, options, loops[i], this::signalWritable);
        }
        this.slots = initial;
    }

    /** {@code connections} connections of a reference's own. */
    static ConnectionPool fixed(ClientResources resources, InetSocketAddress address, ClientOptions options,
                                int connections) {
        return new ConnectionPool(resources, address, options, connections);
    }

    /** One connection, growing to {@code options.maxConnections()} under congestion. */
    static ConnectionPool elastic(ClientResources resources, InetSocketAddress address, ClientOptions options) {
        return new ConnectionPool(resources, address, options, 0);
    }

    /** The connections taking calls now (not those draining). */
    ConnectionSlot[] slots() {
        return slots;
    }

    /** The slot a call waits on when no connection is ready: the first of an elastic pool, round robin if fixed. */
    ConnectionSlot slotToConnect() {
        ConnectionSlot[] all = slots;
        return sizer != null || all.length == 1 ? all[0] : all[Math.floorMod(next.getAndIncrement(), all.length)];
    }

    private static Connection ready(ConnectionSlot slot) {
        CompletableFuture<Connection> ready = slot.readyNow();
        return ready == null ? null : ready.join();
    }

    boolean hasReadyConnection() {
        for (ConnectionSlot slot : slots) {
            if (ready(slot) != null) {
                return true;
            }
        }
        return false;
    }

    /** A ready, writable connection for the next call, or null when there is none; may start another. */
    Connection writableConnection() {
        ConnectionSlot[] all = slots;
        if (sizer == null) {
            int start = all.length == 1 ? 0 : Math.floorMod(next.getAndIncrement(), all.length);
            for (int i = 0; i < all.length; i++) {
                Connection c = ready(all[(start + i) % all.length]);
                if (c != null && c.isWritable()) {
                    return c;
                }
            }
            return null;
        }
        Connection leastQueued = null;
        ConnectionSlot leastQueuedSlot = null;
        long least = Long.MAX_VALUE;
        for (int i = 0; i < all.length; i++) {
            Connection c = ready(all[i]);
            if (c == null || !c.isWritable()) {
                continue;
            }
            long queued = c.queuedBytes();
            if (queued <= congestedBytes) {
                sizer.relieved();
                if (i > 0) {
                    all[i].lastPickedNanos = ticker.nanoTime();
                }
                return c;
            }
            if (queued < least) {
                least = queued;
                leastQueued = c;
                leastQueuedSlot = all[i];
            }
        }
        long now = ticker.nanoTime();
        if (sizer.congested(now, all.length, growing)) {
            grow(now);
        }
        if (leastQueuedSlot != null && leastQueuedSlot != all[0]) {
            leastQueuedSlot.lastPickedNanos = now;
        }
        return leastQueued;
    }

    /** Completes the next time a connection of this pool becomes writable (or one is added). */
    CompletableFuture<Void> writableSignal() {
        return writable.get();
    }

    private void signalWritable() {
        writable.getAndSet(new CompletableFuture<>()).complete(null);
    }

    private void grow(long now) {
        ConnectionSlot slot;
        synchronized (this) {
            if (closed || growing || slots.length >= options.maxConnections()) {
                return;
            }
            growing = true;
            sizer.grew();
            slot = new ConnectionSlot(resources, address, options, resources.loopApartFrom(loops()),
                    this::signalWritable);
            slot.lastPickedNanos = now;
        }
        slot.connection().whenComplete((c, error) -> added(slot, error));
    }

    private List<EventLoop> loops() {
        List<EventLoop> loops = new ArrayList<>();
        for (ConnectionSlot slot : slots) {
            loops.add(slot.loop());
        }
        return loops;
    }

    private void added(ConnectionSlot slot, Throwable error) {
        boolean keep;
        int size;
        synchronized (this) {
            growing = false;
            keep = !closed && error == null;
            if (keep) {
                ConnectionSlot[] grown = Arrays.copyOf(slots, slots.length + 1);
                grown[grown.length - 1] = slot;
                slots = grown;
                armSizeCheck();
            }
            size = slots.length;
        }
        if (keep) {
            log.info("{}: every connection stayed congested; opened another ({} of at most {})", address, size,
                    options.maxConnections());
            signalWritable();
        } else {
            slot.close();
        }
    }

    private void armSizeCheck() {
        if (sizeCheck == null && !closed && (slots.length > 1 || !draining.isEmpty())) {
            sizeCheck = resources.timer().newTimeout(t -> checkSize(), Math.max(sizer.idleNanos() / 4,
                    TimeUnit.MILLISECONDS.toNanos(10)), TimeUnit.NANOSECONDS);
        }
    }

    /** Lets idle extras go, and closes those drained. */
    void checkSize() {
        List<ConnectionSlot> toClose = new ArrayList<>();
        synchronized (this) {
            sizeCheck = null;
            if (closed) {
                return;
            }
            long now = ticker.nanoTime();
            List<ConnectionSlot> keep = new ArrayList<>(List.of(slots));
            for (int i = keep.size() - 1; i >= 1; i--) {
                ConnectionSlot slot = keep.get(i);
                if (sizer.idle(now, slot.lastPickedNanos)) {
                    keep.remove(i);
                    draining.add(slot);
                }
            }
            if (keep.size() != slots.length) {
                slots = keep.toArray(new ConnectionSlot[0]);
                log.info("{}: idle connection(s) let go; {} left", address, slots.length);
            }
            draining.removeIf(slot -> {
                Connection c = slot.current();
                if (c == null || c.pendingCalls() == 0) {
                    toClose.add(slot);
                    return true;
                }
                return false;
            });
            armSizeCheck();
        }
        toClose.forEach(ConnectionSlot::close);
    }

    /** Every connection, those draining included. */
    List<ConnectionInfo> snapshot() {
        List<ConnectionInfo> all = new ArrayList<>();
        List<ConnectionSlot> drainingNow;
        synchronized (this) {
            drainingNow = new ArrayList<>(draining);
        }
        for (ConnectionSlot slot : slots) {
            all.add(slot.snapshot(false));
        }
        for (ConnectionSlot slot : drainingNow) {
            all.add(slot.snapshot(true));
        }
        return all;
    }

    /** Adds this pool's connections, those draining included, to {@code counts} by state. */
    void countStates(Map<ConnectionInfo.State, Integer> counts) {
        List<ConnectionSlot> drainingNow;
        synchronized (this) {
            drainingNow = new ArrayList<>(draining);
        }
        for (ConnectionSlot slot : slots) {
            counts.merge(slot.state(false), 1, Integer::sum);
        }
        for (ConnectionSlot slot : drainingNow) {
            counts.merge(slot.state(true), 1, Integer::sum);
        }
    }

    void close() {
        List<ConnectionSlot> all;
        synchronized (this) {
            closed = true;
            if (sizeCheck != null) {
                sizeCheck.cancel();
                sizeCheck = null;
            }
            all = new ArrayList<>(List.of(slots));
            all.addAll(draining);
            draining.clear();
        }
        all.forEach(ConnectionSlot::close);
        signalWritable();
    }
}
