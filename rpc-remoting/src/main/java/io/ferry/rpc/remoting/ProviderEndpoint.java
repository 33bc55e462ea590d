package io.ferry.rpc.remoting;

import io.ferry.rpc.Invoker;
import io.ferry.rpc.remoting.internal.transport.Transports;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * A consumer's invoker for one provider address, made by {@link Client#endpoints}: sends calls over that provider's
 * connections (the shared one, or {@code connections} of its own), keeps them alive and reconnects them. Close it
 * when the provider leaves. Thread-safe.
 */
public interface ProviderEndpoint extends Invoker, AutoCloseable {
    InetSocketAddress socketAddress();

    /** {@code host:port}. */
    String address();

    /** The weight it was opened with. */
    int weight();

    /**
     * Whether a call sent now would go out at once: a connection is open and ready, and the provider has not
     * announced that it is shutting down.
     */
    boolean isReady();

    /**
     * Completes when a connection is ready (connected and pinged); fails when the attempt under way fails. Starts
     * connecting if nothing is under way.
     */
    CompletableFuture<Void> whenReady();

    /**
     * Whether {@code failure} (of {@link #whenReady()}) is a refused connection: the provider's host answered that
     * nothing listens on the port (ECONNREFUSED). Unlike a connect timeout, that is certain at once, so whoever
     * waits for this provider to become ready can stop waiting.
     */
    static boolean isRefusal(Throwable failure) {
        return Transports.isConnectionRefused(failure);
    }

    /** Connections open now. */
    int openConnections();

    /** The IO threads this endpoint's open connections are bound to. Blocks briefly; never call on an IO thread. */
    Set<Thread> ioThreads() throws InterruptedException;

    /** Calls waiting for an answer on this endpoint's connections now. */
    int pendingCalls();

    /**
     * The registry announced this provider again (a restart): if not connected, try again at a random moment within
     * {@code spread} instead of waiting out the back-off.
     */
    void reconnectSoon(Duration spread);

    /** Closes this endpoint's own connections, or gives up its share of the shared one. Idempotent. */
    @Override
    void close();
}
