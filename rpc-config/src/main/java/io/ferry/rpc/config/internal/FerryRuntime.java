package io.ferry.rpc.config.internal;

import io.ferry.rpc.Ticker;
import io.ferry.rpc.config.RegistryConfig;
import io.ferry.rpc.config.internal.accesslog.AccessLogs;
import io.ferry.rpc.config.internal.cluster.Clocks;
import io.ferry.rpc.remoting.AdminServer;
import io.ferry.rpc.remoting.Client;
import io.ferry.rpc.remoting.ConnectionView;
import io.ferry.rpc.remoting.Server;
import io.ferry.rpc.remoting.ServerOptions;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.ferry.rpc.config.internal.cluster.ClusterDirectory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.time.Clock;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * What one {@code Ferry} owns and lends to the references and exports it assembles: the client transport, the
 * server, the registry session, one timer thread, the clock, the access-log writers, and every directory opened for
 * a reference. Each part is made on first use and released by {@link #close()}, in the order that keeps consumers of
 * this process's services calm: unregister, drain the server, write the access logs' last lines, close the
 * references, then the transport and the timer.
 * Thread-safe; a part asked for after close is refused.
 */
public final class FerryRuntime {
    private static final Logger log = LoggerFactory.getLogger(FerryRuntime.class);

    private final Integer clientIoThreads;
    private final ServerOptions serverOptions;
    private final RegistryConfig registryConfig;
    private final String application;
    private final Map<String, String> metadata;
    private final Clocks clocks;
    private final List<AutoCloseable> directories = new ArrayList<>();
    private final AccessLogs accessLogs;
    private final Exports exports = new Exports();
    private final List<CreatedReference> references = new ArrayList<>();
    /** The checks references deferred while {@link #deferChecks()} holds, in creation order. */
    private final List<PendingCheck> pendingChecks = new ArrayList<>();
    private boolean deferringChecks;
    private AdminServer admin;
    private Client client;
    private Server server;
    private RegistryBridge registry;
    private final Instrumentation instrumentation;
    private final RuntimeMeters meters;
    /** A registry Ferry made for itself (metrics=prometheus), closed after its meters; null for none. */
    private final AutoCloseable ownedMeters;
    private final MetricsScrape scrape;
    private final CallTotals calls;
    private boolean closed;

    /**
     * @param clientIoThreads the consumer's IO thread count, or null for the process's default
     * @param registryConfig  null when this Ferry has no registry
     * @param metadata        the application's metadata, written into every URL it registers
     * @param observed        its observability: the filters that observe calls, the meters of the parts it starts,
     *                        the scrape of those meters; {@link Observed#NONE} for none
     */
    public FerryRuntime(Integer clientIoThreads, ServerOptions serverOptions, RegistryConfig registryConfig,
                        String application, Map<String, String> metadata, Ticker ticker, Clock wall,
                        Observed observed) {
        this.instrumentation = observed.instrumentation();
        this.meters = observed.meters();
        this.scrape = observed.scrape();
        this.calls = observed.calls();
        this.ownedMeters = observed.owned();
        this.clientIoThreads = clientIoThreads;
        this.serverOptions = serverOptions;
        this.registryConfig = registryConfig;
        this.application = application;
        this.metadata = Map.copyOf(metadata);
        // its one thread starts with the first task: a Ferry that schedules nothing runs no timer thread
        ScheduledThreadPoolExecutor timer = new ScheduledThreadPoolExecutor(1, r -> {
            Thread t = new Thread(r, "ferry-scheduler");
            t.setDaemon(true);
            return t;
        });
        timer.setRemoveOnCancelPolicy(true);
        this.clocks = new Clocks(ticker, wall, timer);
        this.accessLogs = new AccessLogs(ticker);
    }

    /** The filters that observe calls; null when nothing observes them (and no class of Micrometer is loaded). */
    public Instrumentation instrumentation() {
        return instrumentation;
    }

    /** The meters in Prometheus's text format, for the admin port; null when no Prometheus registry holds them. */
    public MetricsScrape scrape() {
        return scrape;
    }

    /** The calls' timers summed per side, service and method, for the admin port; null without a meter registry. */
    public CallTotals calls() {
        return calls;
    }

    /** Where the references and exports this runtime assembles are metered. */
    public RuntimeMeters meters() {
        return meters;
    }

    public String application() {
        return application;
    }

    public Ticker ticker() {
        return clocks.ticker();
    }

    /** The time sources and the one timer, for what this runtime assembles. */
    public Clocks clocks() {
        return clocks;
    }

    /**
     * The access-log writers of this Ferry's services; {@link AccessLogs#droppedLines()} counts the lines they could
     * not write.
     */
    public AccessLogs accessLogs() {
        return accessLogs;
    }

    /** The client transport, created with the first reference. */
    public synchronized Client client() {
        checkOpen();
        if (client == null) {
            client = Client.create(clientIoThreads != null ? clientIoThreads : ServerOptions.defaultIoThreads(),
                    clocks.ticker());
            meters.clientStarted(client);
        }
        return client;
    }

    /** The server, started with the first export. */
    public synchronized Server server() {
        checkOpen();
        if (server == null) {
            server = Server.start(serverOptions, clocks.ticker());
            meters.serverStarted(server);
        }
        return server;
    }

    /** The server if one runs, else null. */
    public synchronized Server runningServer() {
        return server;
    }

    /** The registry, connected on first use; null when this Ferry has none. */
    public synchronized RegistryBridge registry() {
        checkOpen();
        if (registryConfig == null) {
            return null;
        }
        if (registry == null) {
            registry = RegistryBridges.open(registryConfig, application, metadata, clocks);
            meters.registryOpened(registry);
        }
        return registry;
    }

    /** The registry if something has opened it, without opening it; null otherwise. */
    public synchronized RegistryBridge openedRegistry() {
        return registry;
    }

    /** Whether a registry is configured, opened or not. */
    public boolean hasRegistry() {
        return registryConfig != null;
    }

    /**
     * The one timer thread of this Ferry, for every delayed task of its references and registry (failback retries,
     * draining providers that left, registry work). Its thread starts with the first task.
     */
    public ScheduledExecutorService timer() {
        return clocks.timer();
    }

    /**
     * Opens a reference's directory on the client transport and closes it with this Ferry. Under this Ferry's lock,
     * so that a concurrent close either closes the new directory or refuses to open it.
     */
    public synchronized <D extends AutoCloseable> D openDirectory(Function<Client, D> opener) {
        D directory = opener.apply(client());
        directories.add(directory);
        return directory;
    }

    /** The services exported, and whether an operator took them offline. */
    public Exports exports() {
        return exports;
    }

    /** Keeps a reference that was made, for the admin port to show. */
    public synchronized void created(CreatedReference reference) {
        references.add(reference);
    }

    public synchronized List<CreatedReference> references() {
        return List.copyOf(references);
    }

    /**
     * A reference's {@code check} put off until {@link #checkDeferred()}: its service, its directory, and how long
     * it may take to find a ready provider (its connect timeout).
     */
    public record PendingCheck(String service, ClusterDirectory directory, Duration timeout) {
    }

    /** From now until {@link #checkDeferred()}, references' checks are kept for later instead of waited for. */
    public synchronized void deferChecks() {
        deferringChecks = true;
    }

    /** Keeps {@code check} for {@link #checkDeferred()} and returns true while checks are deferred; else false. */
    public synchronized boolean deferCheck(PendingCheck check) {
        if (deferringChecks) {
            pendingChecks.add(check);
        }
        return deferringChecks;
    }

    /**
     * Waits for a ready provider for every check deferred so far, all at once (each within its own timeout from
     * now), and ends the deferral: later references check as they are created.
     *
     * @return one line per reference without a ready provider (its service, its providers, why); empty when all
     *         have one
     */
    public List<String> checkDeferred() throws InterruptedException {
        List<PendingCheck> checks;
        synchronized (this) {
            checks = List.copyOf(pendingChecks);
            pendingChecks.clear();
            deferringChecks = false;
        }
        long start = clocks.ticker().nanoTime();
        List<String> failed = new ArrayList<>();
        for (PendingCheck check : checks) {
            long left = check.timeout().toNanos() - (clocks.ticker().nanoTime() - start);
            String why = check.directory().awaitReady(Math.max(0, left));
            if (why != null) {
                failed.add("reference to " + check.service() + " (" + check.directory().describe()
                        + "): no provider ready within " + check.timeout().toMillis() + " ms: " + why);
            }
        }
        return failed;
    }

    /** The admin port, closed last with this runtime (probes see "shutting down" while it closes). */
    public synchronized void admin(AdminServer server) {
        this.admin = server;
    }

    /** The admin port if one runs, else null. */
    public synchronized AdminServer admin() {
        return admin;
    }

    /** A directory closed early (its reference failed to start): no longer this Ferry's to close. */
    public synchronized void untrack(AutoCloseable directory) {
        directories.remove(directory);
    }

    public synchronized ConnectionView consumerConnections() {
        return client == null ? new ConnectionView("client", List.of()) : client.connectionView();
    }

    public synchronized ConnectionView providerConnections() {
        return server == null ? new ConnectionView("server", List.of()) : server.connectionView();
    }

    public synchronized boolean isClosed() {
        return closed;
    }

    public synchronized void checkOpen() {
        if (closed) {
            throw new IllegalStateException("this Ferry bootstrap is closed");
        }
    }

    /**
     * Unregisters, shuts the server down gracefully (in-flight requests may still call out through the references),
     * then closes the references, the transport and the timer. Idempotent; returns whether this call closed it.
     */
    public boolean close() {
        List<AutoCloseable> toClose;
        Server toStop;
        RegistryBridge toLeave;
        Client transport;
        AdminServer adminPort;
        synchronized (this) {
            if (closed) {
                return false;
            }
            closed = true;
            toClose = new ArrayList<>(directories);
            directories.clear();
            toStop = server;
            toLeave = registry;
            transport = client;
            adminPort = admin;
        }
        long start = clocks.ticker().nanoTime();
        // each step runs whatever the one before it threw: a failing registry must not leak the server or threads
        if (toLeave != null) {
            closeQuietly("the registry", () -> {
                toLeave.close(); // unregister first: consumers stop choosing this provider
                log.info("closing: unregistered from the registry ({}) and left it in {} ms", registryConfig,
                        millisSince(start));
            });
        }
        if (toStop != null) {
            // it logs its own steps: readonly event, grace, calls in flight, closed
            closeQuietly("the server", toStop::shutdownGracefully);
        }
        closeQuietly("the access logs", accessLogs); // every call has ended: their last lines are all queued
        toClose.forEach(directory -> closeQuietly(directory.toString(), directory));
        if (transport != null) {
            closeQuietly("the client", transport::close);
        }
        if (adminPort != null) {
            closeQuietly("the admin port", adminPort); // last: it answered "shutting down" until now
        }
        clocks.timer().shutdownNow();
        try {
            meters.close(); // last: a scrape during the shutdown still sees the server drain
        } finally {
            if (ownedMeters != null) {
                closeQuietly("Ferry's own meter registry", ownedMeters);
            }
        }
        if (toLeave != null || toStop != null || transport != null) {
            log.info("Ferry closed in {} ms ({}{}{})", millisSince(start), toStop != null ? "server" : "no server",
                    toClose.isEmpty() ? "" : ", " + toClose.size() + " reference(s)",
                    toLeave != null ? ", registry" : "");
        }
        return true;
    }

    private long millisSince(long startNanos) {
        return TimeUnit.NANOSECONDS.toMillis(clocks.ticker().nanoTime() - startNanos);
    }

    private static void closeQuietly(String what, AutoCloseable closeable) {
        try {
            closeable.close();
        } catch (Exception e) {
            log.warn("closing {}: {}", what, e.toString());
        }
    }
}
