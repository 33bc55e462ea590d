package io.ferry.rpc.remoting;

import io.ferry.rpc.spi.Validate;
import io.ferry.rpc.ClassAllowList;
import io.ferry.rpc.Ticker;
import io.ferry.rpc.remoting.internal.client.ClientResources;
import io.ferry.rpc.remoting.internal.client.ProviderClient;
import io.ferry.rpc.remoting.internal.service.ServiceSchema;
import io.ferry.rpc.remoting.internal.transport.Transports;

import java.util.Map;
import java.util.Objects;
import java.util.concurrent.Executor;

/**
 * The consumer side of the transport: one client event loop group ({@code ioThreads}, default min(cores + 1, 32)),
 * one timer for every call's deadline, one callback executor, and the connections shared by every endpoint that
 * does not ask for connections of its own (one per provider address and connection-shaping options).
 *
 * <p>A {@code Ferry} bootstrap owns one and closes it; nothing here is process-wide. Every time read of its
 * connections and pools (reconnect gaps, pool sizing, connection age, heartbeat round trips) goes through one
 * {@link Ticker}, the system's unless {@link #create(int, Ticker)} is given another. Thread-safe.
 */
public final class Client implements AutoCloseable {
    private final ClientResources resources;

    private Client(int ioThreads, Ticker ticker) {
        this.resources = new ClientResources(ioThreads, ticker);
    }

    /** A client with min(cores + 1, 32) IO threads. */
    public static Client create() {
        return create(ServerOptions.defaultIoThreads(), Ticker.system());
    }

    public static Client create(int ioThreads) {
        return create(ioThreads, Ticker.system());
    }

    /** A client whose connections and pools read time from {@code ticker}: a {@code Ferry} passes its own. */
    public static Client create(int ioThreads, Ticker ticker) {
        return new Client(Validate.between("ioThreads", ioThreads, 1, 1024), Objects.requireNonNull(ticker, "ticker"));
    }

    /**
     * A factory of endpoints for one service interface: what its calls may deserialize is everything reachable from
     * the interface's signatures plus {@code allowList}.
     *
     * @throws IllegalArgumentException when {@code options} ask for TLS and a file they name cannot be used
     */
    public EndpointFactory endpoints(Class<?> service, ClassAllowList allowList, ClientOptions options) {
        ServiceSchema schema = ServiceSchema.of(service, allowList, ServiceSchema.Side.CONSUMER);
        if (options.tls() != null) {
            resources.tlsContext(options.tls()); // its files read and checked now, not on an IO thread
        }
        return (address, weight, spread) -> new ProviderClient(resources, address, schema, options, weight, spread);
    }

    /**
     * A snapshot of every connection this client has, shared pools and endpoints' own: state, IO thread, pending
     * calls, bytes queued, time spent unwritable, the last heartbeat's round trip. {@code toString()} prints a table.
     */
    public ConnectionView connectionView() {
        return new ConnectionView("client", resources.connections());
    }

    /**
     * How many of this client's connections are in each state now (every state present, 0 when none is): the
     * counts of {@link #connectionView()} without building it. Lock-free but for a brief look at each pool.
     */
    public Map<ConnectionInfo.State, Integer> connectionCounts() {
        return resources.connectionCounts();
    }

    /** What this client's connections have carried since it started: bytes each way, back-pressure pauses. */
    public TransportStats transportStats() {
        return resources.transportStats();
    }

    /** Where asynchronous calls complete: never an IO thread. */
    public Executor callbackExecutor() {
        return resources.callbackExecutor();
    }

    public int ioThreads() {
        return resources.ioThreads();
    }

    /** True on one of Ferry's IO threads (client or server), where nothing may block. */
    public static boolean isIoThread() {
        return Transports.inEventLoop();
    }

    public boolean isShutdown() {
        return resources.isShutdown();
    }

    /** Closes the shared connections and stops the IO threads, the timer and the callback executor. */
    @Override
    public void close() {
        resources.close();
    }
}
