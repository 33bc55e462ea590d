package io.ferry.rpc.remoting;

import io.ferry.rpc.remoting.internal.codec.FrameDecoder;
import io.ferry.rpc.remoting.internal.codec.PartialFrames;
import io.ferry.rpc.remoting.internal.server.BusinessPool;
import io.ferry.rpc.remoting.internal.server.BusinessPools;
import io.ferry.rpc.remoting.internal.server.ServerHandler;
import io.ferry.rpc.remoting.internal.server.TlsPipeline;
import io.ferry.rpc.remoting.internal.tls.TlsContext;
import io.ferry.rpc.remoting.internal.tls.TlsReloader;
import io.ferry.rpc.remoting.internal.service.ProviderService;
import io.ferry.rpc.remoting.internal.server.ProviderChain;
import io.ferry.rpc.remoting.internal.server.ProviderLogs;
import io.ferry.rpc.Invoker;
import io.ferry.rpc.Ticker;
import io.ferry.rpc.remoting.internal.service.ServiceCounters;
import io.ferry.rpc.remoting.internal.service.ServiceSchema;
import io.ferry.rpc.remoting.internal.transport.ByteCounter;
import io.ferry.rpc.remoting.internal.service.ServiceTable;
import io.ferry.rpc.remoting.internal.transport.Transports;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.ChannelGroupFuture;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.handler.timeout.IdleStateHandler;
import io.netty.util.concurrent.GlobalEventExecutor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.nio.file.Path;
import java.nio.file.Files;
import java.io.BufferedReader;
import java.io.IOException;

/**
 * A provider's listening endpoint: accepts connections on its IO threads, answers heartbeats there, and runs every
 * request on a bounded business pool ({@code threads}, {@code queues}). A request that finds the pool full is
 * answered at once with THREADPOOL_EXHAUSTED (100), from the IO thread. Owns its event loop groups and pool, and
 * releases them on {@link #close()}. Reads time from one {@link Ticker} only (requests' deadlines, connections' age,
 * the shutdown's waits), the system's unless {@link #start(ServerOptions, Ticker)} is given another.
 */
public final class Server implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(Server.class);

    private final ServerOptions options;
    private final EventLoopGroup boss;
    private final EventLoopGroup workers;
    private final BusinessPools pools;
    private final ChannelGroup channels = new DefaultChannelGroup("ferry-server", GlobalEventExecutor.INSTANCE);
    private final Channel serverChannel;
    private final InetSocketAddress address;
    private final ServerHandler handler;
    private final Ticker ticker;
    private final AtomicBoolean closed = new AtomicBoolean();
    /** Null without TLS. */
    private final TlsReloader tlsReloader;

    private final ServiceTable services = new ServiceTable();

    private Server(ServerOptions options, Ticker ticker) {
        this.options = options;
        this.ticker = ticker;
        warnIfBacklogCapped(options.backlog());
        TlsPipeline tls = null;
        if (options.tls() != null) {
            TlsContext context = TlsContext.server(options.tls(), java.time.Clock.systemUTC()); // fails before a bind
            tls = new TlsPipeline(context, ticker);
            this.tlsReloader = new TlsReloader();
            tlsReloader.watch(context);
        } else {
            this.tlsReloader = null;
        }
        TlsPipeline tlsPipeline = tls;
        this.boss = Transports.newGroup(1, "ferry-server-boss");
        this.workers = Transports.newGroup(options.ioThreads(), "ferry-server-io");
        this.pools = new BusinessPools(new BusinessPool(options.pool(), PoolStats.SHARED, "ferry-server-biz"));
        ServerBootstrap bootstrap = new ServerBootstrap().group(boss, workers)
                .channel(Transports.serverSocketChannel())
                .option(ChannelOption.SO_BACKLOG, options.backlog())
                .option(ChannelOption.SO_REUSEADDR, true);
        Transports.applyServerChild(bootstrap, options.socket());
        try {
            InetSocketAddress bind = options.host() == null
                    ? new InetSocketAddress(options.port()) : new InetSocketAddress(options.host(), options.port());
            ProviderLogs logs = new ProviderLogs(ticker);
            this.handler = new ServerHandler(services, pools, options.dispatcher(),
                    options.payloadBytes(), channels, options.accepts(), ticker, logs);
            ByteCounter bytes = new ByteCounter(handler.traffic());
            long idleNanos = 3 * options.heartbeat().toNanos();
            PartialFrames partialFrames = new PartialFrames(options.frameTimeout().toNanos(),
                    options.partialFrameBudgetBytes());
            bootstrap.childHandler(new ChannelInitializer<Channel>() {
                @Override
                protected void initChannel(Channel ch) {
                    ch.pipeline().addLast("idle", new IdleStateHandler(idleNanos, 0, 0, TimeUnit.NANOSECONDS));
                    if (tlsPipeline != null) {
                        tlsPipeline.addTo(ch.pipeline());
                    }
                    ch.pipeline().addLast("bytes", bytes) // after TLS: frames in the clear
                            .addLast("decoder", new FrameDecoder(FrameDecoder.Side.PROVIDER, options.payloadBytes(),
                                    partialFrames, logs.frames()))
                            .addLast("handler", handler);
                }
            });
            if (bind.isUnresolved()) {
                throw new IllegalArgumentException("host: '" + options.host()
                        + "' (expected: an address or name of this machine; it does not resolve)");
            }
            ChannelFuture bound = bootstrap.bind(bind).awaitUninterruptibly();
            if (!bound.isSuccess()) {
                throw bindFailed(options, bound.cause());
            }
            this.serverChannel = bound.channel();
            this.address = (InetSocketAddress) serverChannel.localAddress();
            handler.localAddress(address);
        } catch (RuntimeException | Error e) {
            shutdownResources();
            throw e;
        }
        log.info("Ferry server listening on {} ({} transport, {} IO threads, {} business threads{})", address,
                Transports.name(), options.ioThreads(), options.threads(), options.tls() == null ? ""
                        : ", TLS only, " + options.tls().provider().name().toLowerCase(java.util.Locale.ROOT)
                        + " engine, client certificates " + options.tls().clientAuth().name()
                        .toLowerCase(java.util.Locale.ROOT));
    }

    /** A bind failure that names the option and value to change, not just the kernel's words. */
    private static RuntimeException bindFailed(ServerOptions options, Throwable cause) {
        String where = (options.host() == null ? "every local address" : options.host());
        String why = cause == null ? "unknown" : cause.getMessage();
        if (why != null && why.contains("in use")) {
            return new IllegalStateException("port: " + options.port() + " is already in use on " + where
                    + " (another provider?); choose another port, or 0 for a free one", cause);
        }
        if (why != null && (why.contains("assign requested address") || why.contains("not available"))) {
            return new IllegalArgumentException("host: '" + options.host() + "' is not an address of this machine"
                    + " (cannot bind: " + why + ")", cause);
        }
        return new IllegalStateException("cannot listen on " + where + " port " + options.port() + ": " + why,
                cause);
    }

    /** Linux silently caps the accept queue at net.core.somaxconn: say so when that defeats the backlog. */
    private static void warnIfBacklogCapped(int backlog) {
        Path somaxconn = Path.of("/proc/sys/net/core/somaxconn");
        // read a line: /proc files report size 0, and Files.readString then returns only their first byte
        try (BufferedReader reader = Files.newBufferedReader(somaxconn)) {
            int cap = Integer.parseInt(reader.readLine().trim());
            if (cap < backlog) {
                log.warn("backlog {} is capped by net.core.somaxconn = {}: raise it (sysctl -w net.core.somaxconn={})"
                        + " or a reconnect storm may overflow the accept queue", backlog, cap, backlog);
            }
        } catch (IOException | RuntimeException e) {
            // not Linux, or not readable: nothing to say
        }
    }

    /** Binds and starts serving; add services with {@link #export}. Fails if the address cannot be bound. */
    public static Server start(ServerOptions options) {
        return start(options, Ticker.system());
    }

    /**
     * As {@link #start(ServerOptions)}, with every time read going through {@code ticker}: a {@code Ferry}
     * bootstrap passes its own, tests a fake one.
     */
    public static Server start(ServerOptions options, Ticker ticker) {
        return new Server(options, Objects.requireNonNull(ticker, "ticker"));
    }

    /** Starts answering for a service; fails if one with the same interface, version and group is there. */
    public void export(ServiceExport export) {
        if (export.pool() != null && pools.dedicate(export.type().getName(), new BusinessPool(export.pool(),
                export.type().getName(), "ferry-biz-" + export.type().getSimpleName()))) {
            log.info("{} runs on a pool of its own ({} threads)", export.type().getName(), export.pool().threads());
        }
        ServiceSchema schema = ServiceSchema.of(export.type(), export.allowList(), ServiceSchema.Side.PROVIDER);
        ServiceCounters counters = new ServiceCounters();
        Invoker chain = ProviderChain.around(export.invoker(), schema, export.timeout(), export.methodTimeouts(),
                ticker, export.front(), counters);
        services.add(new ProviderService(schema, export.version(), export.group(), chain, counters));
    }

    /** Stops answering for a service: requests for it are answered "service not found" from now on. */
    public void unexport(Class<?> type, String version, String group) {
        ProviderService service = services.find(type.getName(), version, group);
        if (service != null) {
            services.remove(service);
        }
    }

    public InetSocketAddress address() {
        return address;
    }

    /** The bound port (useful with port 0). */
    public int port() {
        return address.getPort();
    }

    public ServerOptions options() {
        return options;
    }

    /** Heartbeats answered since start (for diagnostics and the C10K experiment). */
    public long heartbeatsAnswered() {
        return handler.heartbeatsAnswered();
    }

    /**
     * A snapshot of every consumer connection: addresses, IO thread, requests in flight, answers queued, time spent
     * unwritable (back-pressure), age. {@code toString()} prints it as a table.
     */
    public ConnectionView connectionView() {
        return new ConnectionView("server " + address.getHostString() + ":" + address.getPort(),
                handler.connections(closed.get()));
    }

    /**
     * Tells every consumer connection, and each that connects until {@link #announceWritable()}, that this provider
     * takes no new calls: Dubbo's readonly event, which Ferry and Dubbo consumers honour by choosing other
     * providers. Closes nothing and refuses nothing: a call that still arrives (a consumer with no other provider)
     * runs. An operator's offline sends it; {@link #shutdownGracefully()} sends it too. Returns how many connections
     * were told.
     */
    public int announceReadonly() {
        return handler.announce(true);
    }

    /** Undoes {@link #announceReadonly()}: Dubbo's writeable event to every connection. Returns how many were told. */
    public int announceWritable() {
        return handler.announce(false);
    }

    /** Whether readonly is announced now (and not undone). */
    public boolean isReadonly() {
        return handler.isReadonly();
    }

    /** Requests being run or answered now. */
    public int inFlight() {
        return handler.inFlight().count();
    }

    /**
     * Completes once no request is in flight: at once when none is, else when the last one ends, on the thread that
     * ends it (a business or IO thread: hop off it before doing anything slow).
     */
    public CompletableFuture<Void> whenIdle() {
        return handler.inFlight().whenNone();
    }

    /**
     * How many consumer connections are in each state now (every state present, 0 when none is): the counts of
     * {@link #connectionView()} without building it.
     */
    public Map<ConnectionInfo.State, Integer> connectionCounts() {
        return handler.connectionCounts(closed.get());
    }

    /** What this server's connections have carried since it started: bytes each way, pauses in reading. */
    public TransportStats transportStats() {
        return handler.traffic().snapshot();
    }

    /** Every business pool now, the shared one first: threads busy, requests queued, capacity, refusals. */
    public List<PoolStats> poolStats() {
        return pools.stats();
    }

    /** Every service exported now: requests in flight, and those dropped because their deadline had passed. */
    public List<ServiceStats> serviceStats() {
        List<ServiceStats> all = new ArrayList<>();
        for (ProviderService service : services.all()) {
            all.add(new ServiceStats(service.schema().name(), service.version(), service.group(),
                    service.counters().inFlight(), service.counters().deadlineDrops()));
        }
        return all;
    }

    /** Open consumer connections. */
    public int connections() {
        return channels.size();
    }

    /**
     * Shuts down without losing a call: stops accepting; sends every connection Dubbo's readonly event, so Ferry and
     * Dubbo consumers stop choosing this provider; keeps serving for the {@code shutdownGrace}, or until every
     * consumer connection has closed if that is sooner (with no consumer connected there is no grace at all); then
     * answers requests that still arrive SHUTTING_DOWN ("not executed, try another provider"); waits up to
     * {@code shutdownTimeout} for requests in flight; then closes. Logs each step at INFO. Unregister from the
     * registry before calling this. Idempotent.
     */
    public void shutdownGracefully() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        long start = ticker.nanoTime();
        serverChannel.close().syncUninterruptibly();
        try {
            graceForConsumers();
            handler.refuseRequests();
            int inFlight = handler.inFlight().count();
            if (inFlight > 0) {
                log.info("{}: waiting up to {} ms for {} call(s) in flight", address,
                        options.shutdownTimeout().toMillis(), inFlight);
                int left = handler.inFlight().awaitNone(options.shutdownTimeout());
                if (left > 0) {
                    log.warn("{}: {} request(s) still running after {} ms; closing anyway", address, left,
                            options.shutdownTimeout().toMillis());
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        closeNow();
        log.info("{}: closed in {} ms", address, TimeUnit.NANOSECONDS.toMillis(ticker.nanoTime() - start));
    }

    /**
     * Tells every connected consumer that this provider is going (Dubbo's readonly event), then serves on for the
     * grace period, so that calls already on their way are taken and run. The grace ends early once no consumer
     * connection is left, since nothing more can arrive; with none connected there is nothing to wait for.
     */
    private void graceForConsumers() throws InterruptedException {
        int consumers = channels.size();
        if (consumers == 0) {
            log.info("{}: stopped accepting; no consumer connected, so no readonly event and no grace period",
                    address);
            return;
        }
        ChannelGroupFuture allClosed = channels.newCloseFuture();
        consumers = handler.announce(true);
        long grace = options.shutdownGrace().toMillis();
        log.info("{}: stopped accepting; readonly event sent to {} consumer connection(s); serving them for up to"
                + " {} ms (shutdownGrace)", address, consumers, grace);
        if (allClosed.await(grace, TimeUnit.MILLISECONDS)) {
            log.info("{}: every consumer connection closed within the grace period", address);
        }
    }

    /** Stops accepting, closes every connection at once, and stops the IO threads and the pool. Idempotent. */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        serverChannel.close().syncUninterruptibly();
        closeNow();
    }

    private void closeNow() {
        channels.close().awaitUninterruptibly(2, TimeUnit.SECONDS);
        shutdownResources();
    }

    private void shutdownResources() {
        if (tlsReloader != null) {
            tlsReloader.close();
        }
        pools.shutdown();
        boss.shutdownGracefully(0, 2, TimeUnit.SECONDS);
        workers.shutdownGracefully(0, 2, TimeUnit.SECONDS).awaitUninterruptibly(3, TimeUnit.SECONDS);
        try {
            pools.awaitTermination(2000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
