package io.ferry.rpc.registry;

import io.ferry.rpc.Ticker;
import io.ferry.rpc.registry.internal.NodeAcls;
import io.ferry.rpc.registry.internal.ProviderCache;
import io.ferry.rpc.registry.internal.QuietZooKeeperLogs;
import io.ferry.rpc.registry.internal.SerialExecutor;
import io.ferry.rpc.registry.internal.TlsMismatch;
import io.ferry.rpc.registry.internal.ZooKeeperTls;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.api.BackgroundCallback;
import org.apache.curator.framework.api.CuratorEvent;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.curator.retry.RetryNTimes;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException.Code;
import org.apache.zookeeper.WatchedEvent;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.client.ZKClientConfig;
import org.apache.zookeeper.data.ACL;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.net.ssl.SSLContext;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

import static io.ferry.rpc.option.RegistryOptionKeys.ZOOKEEPER_KEY_CERT_CHAIN_PATH;
import static io.ferry.rpc.option.RegistryOptionKeys.ZOOKEEPER_TRUST_CERT_COLLECTION_PATH;

/**
 * A {@link Registry} on ZooKeeper, in Dubbo's interface-level layout:
 * <pre>
 * /dubbo/{interface}/providers/{URL-encoded provider URL}   ephemeral
 * /dubbo/{interface}/consumers/{URL-encoded consumer URL}   ephemeral
 * </pre>
 * Parents are persistent, as Dubbo makes them; node data is empty.
 *
 * <h2>Threads</h2>
 * Every ZooKeeper operation is started by one serial executor, in order, and none is waited for there: the
 * executor issues it asynchronously and moves on, and Curator's event thread hands the result back to the executor
 * as a new task. The executor is a {@code ferry-registry} thread of this registry's own, or, with
 * {@link #ZookeeperRegistry(RegistryOptions, ScheduledExecutorService)}, an ordered view over a scheduler the caller
 * shares, with no thread of its own. Listeners are called on it. Curator's own threads come with its client.
 * {@link #register}, {@link #unregister} and {@link #subscribe} wait on the caller's thread, each for at most twice
 * the connection timeout; called on the executor's own thread they cannot wait for work queued behind them and
 * return at once.
 *
 * <h2>Connection loss and sessions</h2>
 * On each (re)connection the executor reconciles: on a <em>new session</em> it re-creates every node this registry
 * registered, replacing in one transaction a node the expired session left (it can linger for a session timeout,
 * and would vanish with it), so that readers never see the provider missing; and it re-reads every
 * subscribed provider list. While ZooKeeper is away (suspended, lost) nothing is unregistered and subscribers keep
 * the last list; every list read is also kept in a cache file, and a subscription that cannot reach ZooKeeper
 * starts from the cached list. Failed registrations and reads are retried every few seconds. How long ZooKeeper has
 * been unreachable ({@link #describe()}) is measured on a {@link Ticker}, the system's unless one is given.
 *
 * <h2>Credentials and TLS</h2>
 * With a username and password ({@link RegistryOptions.Builder#credentials}) the session authenticates with
 * ZooKeeper's digest scheme and every node this registry creates, parents included, gets Dubbo's ACL: all rights to
 * these credentials, none to anyone else ({@link NodeAcls}). Parents that already exist keep their ACL; one that lets
 * anyone change it is named once in a warning. A read or write ZooKeeper refuses (NoAuth, AuthFailed) fails
 * {@link #register} or {@link #subscribe} with a {@link RegistryRefusedException} at start, and is logged and retried
 * later on. With {@code zookeeperTls} the client speaks TLS through its own {@link ZKClientConfig}; a port that speaks
 * the other protocol, or refuses the handshake, fails the constructor within the connection timeout, naming why.
 *
 * <h2>Why not Curator's recipes</h2>
 * Curator 5.9's {@code PersistentNode} creates missing parents as container nodes (Dubbo's are persistent, and the
 * server deletes an empty container), or, told not to, gives up on a missing parent until the next reconnection
 * (after a takeover of the embedded server, a new, empty one); it keeps a node an earlier session left instead of
 * replacing it, so the registration vanishes when that session expires; and its close() deletes synchronously, with
 * retries, whatever the connection. {@code CuratorCache} needs ZooKeeper 3.6+ servers (on older ones its persistent
 * watch is re-added in a loop without pause), reads every provider node's data, which Dubbo ignores, and reports
 * changes node by node, with no complete list after the first load. One {@code getChildren} with a watch is what
 * Dubbo's consumer does, and gives the whole list in one read.
 */
public final class ZookeeperRegistry implements Registry {
    private static final Logger log = LoggerFactory.getLogger(ZookeeperRegistry.class);
    private static final long RETRY_SECONDS = 5;
    /** How long close() waits for its registrations to be deleted: close stays quick whatever ZooKeeper does. */
    private static final long CLOSE_WAIT_MILLIS = 1000;

    private final RegistryOptions options;
    private final CuratorFramework client;
    private final ProviderCache cache;
    /** The thread this registry made for itself, or null when it runs on a scheduler it was given. */
    private final ScheduledExecutorService ownThread;
    private final SerialExecutor executor;
    private final Ticker ticker;
    /** Whether ZooKeeper is out of reach: lost, or never reached yet. */
    private volatile boolean unreachable;
    /** When, on the ticker, the connection to ZooKeeper was lost (or first tried); meaningful while unreachable. */
    private volatile long unreachableSinceNanos;
    /** The URLs registered and not unregistered: what close() deletes. */
    private final Set<ServiceUrl> registered = ConcurrentHashMap.newKeySet();
    /** Each registration's state (executor only). */
    private final Map<ServiceUrl, Registration> registrations = new HashMap<>();
    private final Map<String, ProvidersWatch> watches = new ConcurrentHashMap<>();
    /** Nodes whose ACL was looked at for the open-parent warning (executor only). */
    private final Set<String> aclChecked = new HashSet<>();
    /** This process's share of the embedded server, when it hosts it (from the start, or since a takeover). */
    private volatile EmbeddedZooKeeper.Lease embedded;
    private boolean takeoverScheduled;
    /** Takeover rounds in a row that found a server listening while this client stayed disconnected. */
    private int refusedRounds;
    /** Where the session stands, as Curator last said (LOST until the first connection). */
    private final AtomicReference<RegistryState> state = new AtomicReference<>(RegistryState.LOST);
    /** The session of the current connection, 0 while not connected. */
    private volatile long session;
    /** The session the executor last reconciled (executor only). */
    private long reconciledSession;
    private volatile boolean closed;

    /** A registry with a {@code ferry-registry} thread of its own, which {@link #close()} stops. */
    public ZookeeperRegistry(RegistryOptions options) {
        this(options, Optional.empty(), Ticker.system());
    }

    /**
     * A registry with no thread of its own: its operations run one at a time, in order, on {@code scheduler}, which
     * may have other users (one thread is enough). None of them waits for ZooKeeper there (see the class comment).
     * The caller owns the scheduler: {@link #close()} leaves it running; shut it down after closing every registry
     * on it. Connects before returning (waiting up to the connection timeout), so do not call this on the
     * scheduler's thread.
     */
    public ZookeeperRegistry(RegistryOptions options, ScheduledExecutorService scheduler) {
        this(options, scheduler, Ticker.system());
    }

    /**
     * As {@link #ZookeeperRegistry(RegistryOptions, ScheduledExecutorService)}, with time read from {@code ticker}:
     * a {@code Ferry} bootstrap passes its own, tests a fake one.
     */
    public ZookeeperRegistry(RegistryOptions options, ScheduledExecutorService scheduler, Ticker ticker) {
        this(options, Optional.of(Objects.requireNonNull(scheduler, "scheduler")),
                Objects.requireNonNull(ticker, "ticker"));
    }

    private ZookeeperRegistry(RegistryOptions options, Optional<ScheduledExecutorService> scheduler,
                              Ticker ticker) {
        this.options = options;
        this.ticker = ticker;
        // first, so that a missing or broken file fails here with nothing started yet
        ZKClientConfig tlsConfig = options.tls() ? ZooKeeperTls.clientConfig(
                options.values().get(ZOOKEEPER_TRUST_CERT_COLLECTION_PATH),
                options.values().get(ZOOKEEPER_KEY_CERT_CHAIN_PATH)) : null;
        SSLContext tls = tlsConfig == null ? null : ZooKeeperTls.sslContext(tlsConfig, tlsFiles());
        if (options.embedded()) {
            QuietZooKeeperLogs.apply(); // before the first client logs its environment
        }
        this.embedded = options.embedded() ? EmbeddedZooKeeper.share(options.addresses().get(0),
                () -> warnHosting("this process")).orElse(null) : null;
        this.cache = new ProviderCache(options.cacheFile());
        this.ownThread = scheduler.isPresent() ? null : Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "ferry-registry");
            t.setDaemon(true);
            return t;
        });
        this.executor = new SerialExecutor(scheduler.orElse(ownThread));
        CuratorFrameworkFactory.Builder builder = CuratorFrameworkFactory.builder()
                .connectString(options.connectString())
                .sessionTimeoutMs((int) options.sessionTimeout().toMillis())
                .connectionTimeoutMs((int) options.connectionTimeout().toMillis())
                // one retry, as Dubbo: what fails is retried by reconciliation on reconnection, or by our own
                // retries every few seconds
                .retryPolicy(new RetryNTimes(1, 1000));
        byte[] digest = options.digestAuthentication();
        if (digest != null) {
            // Curator adds the credentials to every ZooKeeper handle it opens, before any operation
            builder.authorization("digest", digest).aclProvider(NodeAcls.creatorOnly());
        }
        if (tlsConfig != null) {
            builder.zkClientConfig(tlsConfig);
        }
        this.client = builder.build();
        long startNanos = ticker.nanoTime();
        client.getConnectionStateListenable().addListener((c, state) -> stateChanged(state));
        client.start();
        try {
            if (awaitFirstConnection(tls, tlsConfig != null && ZooKeeperTls.verifiesHost(tlsConfig))) {
                session = sessionId(); // at once: the listener that also says so may run after register()
                state.compareAndSet(RegistryState.LOST, RegistryState.CONNECTED); // unless Curator spoke since
            } else {
                unreachableSinceNanos = startNanos;
                unreachable = true;
                log.warn("ZooKeeper at {} not reachable within {} ms; working from the cache file until it is",
                        options.connectString(), options.connectionTimeout().toMillis());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            abandon();
            throw e;
        }
    }

    /** The TLS files as the options name them, for messages. */
    private String tlsFiles() {
        return ZOOKEEPER_TRUST_CERT_COLLECTION_PATH.name() + "=" + options.values().get(
                ZOOKEEPER_TRUST_CERT_COLLECTION_PATH, "none (the JVM's CAs)") + ", "
                + ZOOKEEPER_KEY_CERT_CHAIN_PATH.name() + "=" + options.values().get(ZOOKEEPER_KEY_CERT_CHAIN_PATH,
                "none");
    }

    /**
     * Waits up to the connection timeout for a first connection. When none has come in half of it, asks each address
     * whether its port speaks the other protocol (TLS or plain) or refuses the handshake: a configuration error that
     * ZooKeeper would retry for ever without a word, so start fails at once, naming it.
     *
     * @throws IllegalStateException naming the registry, the address and the mismatch
     */
    private boolean awaitFirstConnection(SSLContext tls, boolean verifyHost) throws InterruptedException {
        long timeoutMillis = options.connectionTimeout().toMillis();
        long deadline = ticker.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        if (client.blockUntilConnected((int) Math.max(1, timeoutMillis / 2), TimeUnit.MILLISECONDS)) {
            return true;
        }
        for (InetSocketAddress address : options.addresses()) {
            Optional<String> mismatch = TlsMismatch.diagnose(address, tls, verifyHost, ticker, deadline);
            if (mismatch.isPresent()) {
                throw new IllegalStateException("ZooKeeper " + options.address() + " (" + (tls == null ? "plain TCP"
                        : "zookeeperTls=true") + "): no session with " + address.getHostString() + ":"
                        + address.getPort() + " within " + timeoutMillis + " ms: " + mismatch.get());
            }
        }
        long leftMillis = TimeUnit.NANOSECONDS.toMillis(deadline - ticker.nanoTime());
        // never blockUntilConnected(0): Curator takes 0 as no limit
        return leftMillis > 0 ? client.blockUntilConnected((int) leftMillis, TimeUnit.MILLISECONDS)
                : client.getZookeeperClient().isConnected();
    }

    /** A constructor that fails releases what it started. */
    private void abandon() {
        closed = true;
        release();
    }

    /** The serial executor, the thread of its own if any, the session, and the embedded server if hosted. */
    private void release() {
        executor.close();
        if (ownThread != null) {
            ownThread.shutdownNow();
        }
        client.close();
        EmbeddedZooKeeper.Lease hosted = embedded;
        if (hosted != null) {
            hosted.close();
        }
    }

    /** One line, when this process starts hosting the embedded server and on each takeover: loud on purpose. */
    private void warnHosting(String who) {
        log.warn("{} hosts an in-process ZooKeeper at {}, as {} asks, for development only; to use a real one, run "
                + "ZooKeeper and give its address without embedded=true", who, options.connectString(), options);
    }

    @Override
    public String describe() {
        return "ZooKeeper " + options.connectString() + (options.embedded() ? " (embedded=true)" : "")
                + (!unreachable ? "" : ", unreachable for "
                + TimeUnit.NANOSECONDS.toSeconds(ticker.nanoTime() - unreachableSinceNanos) + " s");
    }

    /** Connected, suspended (the connection dropped, the session may live) or lost (the session is gone). */
    @Override
    public Optional<RegistryState> state() {
        return Optional.of(state.get());
    }

    /** Whether this registry holds a share of an embedded server of this process. */
    public boolean usesEmbeddedServer() {
        return embedded != null;
    }

    /** The current ZooKeeper session id, 0 when not connected. For diagnostics and tests. */
    public long sessionId() {
        try {
            return client.getZookeeperClient().isConnected()
                    ? client.getZookeeperClient().getZooKeeper().getSessionId() : 0;
        } catch (Exception e) {
            return 0;
        }
    }

    private String providersPath(String interfaceName) {
        return "/" + options.root() + "/" + interfaceName + "/providers";
    }

    private String nodePath(ServiceUrl url) {
        String category = "consumer".equals(url.protocol()) ? "consumers" : "providers";
        return "/" + options.root() + "/" + url.parameter("interface", url.path()) + "/" + category + "/"
                + url.encoded();
    }

    // ---- asynchronous operations ----

    /** Issues one asynchronous Curator operation with the callback given. */
    @FunctionalInterface
    private interface Operation {
        void issue(BackgroundCallback callback) throws Exception;
    }

    /** What an operation came back with: a ZooKeeper result code, the children of getChildren, the ACL of getACL. */
    private record Result(Code code, List<String> children, List<ACL> acl) {
        static final Result FAILED = new Result(Code.SYSTEMERROR, List.of(), List.of());

        static Result of(CuratorEvent event) {
            Code code = Code.get(event.getResultCode());
            return new Result(code == null ? Code.SYSTEMERROR : code,
                    event.getChildren() == null ? List.of() : event.getChildren(),
                    event.getACLList() == null ? List.of() : event.getACLList());
        }

        boolean ok() {
            return code == Code.OK;
        }

        /** ZooKeeper refused for want of rights: a matter of credentials, not of connection. */
        boolean refused() {
            return code == Code.NOAUTH || code == Code.AUTHFAILED;
        }
    }

    /** The message of a refusal to {@code verb} {@code path}. */
    private String refusal(String verb, String path, Code code) {
        return RegistryRefusedException.message(options.address(), verb, path, code == Code.AUTHFAILED,
                options.username());
    }

    /**
     * Executor: with credentials, looks once at the ACL of each node down to {@code path} (Ferry's nodes' parents,
     * which may have been created before, by anyone) and warns about one that lets anyone change it.
     */
    private void warnIfOpen(String path) {
        if (options.username() == null) {
            return;
        }
        for (String node : NodeAcls.pathsDownTo(path)) {
            if (aclChecked.add(node)) {
                async(cb -> client.getACL().inBackground(cb).forPath(node), result -> {
                    String rights = result.ok() ? NodeAcls.openRights(result.acl()) : "";
                    if (!rights.isEmpty()) {
                        log.warn("ZooKeeper node {} at {} gives anyone (world:anyone) the rights '{}': anyone who "
                                + "reaches ZooKeeper can add or delete nodes under it, such as provider "
                                + "registrations. Ferry gives the nodes it creates to its credentials only, but leaves "
                                + "this one, created before, as it is (only its admins can change its ACL)", node,
                                options.address(), rights);
                    }
                });
            }
        }
    }

    /**
     * Executor: issues {@code operation} without waiting for it; {@code then} runs on the executor with its result.
     * Curator sends it at once while connected; otherwise it queues it, waits up to the connection timeout and
     * retries once, all on its own threads.
     */
    private void async(Operation operation, Consumer<Result> then) {
        try {
            operation.issue((c, event) -> executor.execute(() -> then.accept(Result.of(event))));
        } catch (Exception e) {
            // the client is closing, or a programming error: report it as a failed operation, in order
            log.debug("could not issue a ZooKeeper operation: {}", e.toString());
            executor.execute(() -> then.accept(Result.FAILED));
        }
    }

    // ---- registration ----

    /**
     * Returns once the node exists, or (ZooKeeper away) once it is kept for the next connection.
     *
     * @throws RegistryRefusedException when ZooKeeper refuses to create it (NoAuth, AuthFailed): nothing is retried
     */
    @Override
    public void register(ServiceUrl url) {
        registered.add(url);
        awaitQuietly(want(url, true));
    }

    /** Returns once the node is deleted, or (ZooKeeper away) once it is marked for deletion on reconnection. */
    @Override
    public void unregister(ServiceUrl url) {
        registered.remove(url);
        awaitQuietly(want(url, false));
    }

    /** Asks for a node to exist or not; the future completes when that is done or can be done no further now. */
    private CompletableFuture<Void> want(ServiceUrl url, boolean wanted) {
        CompletableFuture<Void> settled = new CompletableFuture<>();
        executor.execute(() -> {
            Registration r = registrations.computeIfAbsent(url, Registration::new);
            r.wanted = wanted;
            r.waiters.add(settled);
            sync(r);
        });
        return settled;
    }

    /** One registration's node and what is wanted of it. Executor only. */
    private final class Registration {
        final ServiceUrl url;
        final String path;
        boolean wanted;
        /** The session the node was created in, 0 when this registry has no node. */
        long createdIn;
        /** An operation on the node is in flight: its result runs sync() again. */
        boolean busy;
        /** A create failed and waits for its retry (or the next connection). */
        boolean retryPending;
        /** A refusal was logged: its retries stay quiet until one succeeds. */
        boolean refusalLogged;
        final List<CompletableFuture<Void>> waiters = new ArrayList<>();

        Registration(ServiceUrl url) {
            this.url = url;
            this.path = nodePath(url);
        }

        void settled() {
            waiters.forEach(w -> w.complete(null));
            waiters.clear();
        }
    }

    /**
     * Executor: takes one step towards what is wanted of {@code r}, one operation at a time. A wanted node is
     * created once per session; one an earlier session left there (it would go when that session expires, taking
     * the registration with it) is replaced by a node of this session in one transaction, so that no reader ever
     * finds the provider missing in between; an unwanted one is deleted, once connected.
     */
    private void sync(Registration r) {
        if (r.busy) {
            return;
        }
        long current = session;
        if (closed) {
            r.settled();
        } else if (r.wanted && current != 0 && r.createdIn != current && !r.retryPending) {
            r.busy = true;
            async(cb -> client.create().creatingParentsIfNeeded().withMode(CreateMode.EPHEMERAL)
                    .inBackground(cb).forPath(r.path, new byte[0]), created -> {
                if (created.code() == Code.NODEEXISTS && r.wanted && !closed) {
                    replace(r, current);
                } else {
                    createDone(r, current, created, "create");
                }
            });
        } else if (!r.wanted && r.createdIn != 0 && current != 0) {
            r.busy = true;
            async(cb -> client.delete().inBackground(cb).forPath(r.path), deleted -> {
                r.busy = false;
                if (deleted.ok() || deleted.code() == Code.NONODE) {
                    r.createdIn = 0;
                    sync(r);
                } else {
                    // kept: the next connection tries again; the node goes at the latest with its session
                    log.warn("cannot unregister {} yet ({}); trying again on reconnection", r.url, deleted.code());
                    r.settled();
                }
            });
        } else {
            if (!r.wanted && r.createdIn == 0) {
                registrations.remove(r.url, r);
            }
            r.settled();
        }
    }

    /**
     * Executor: deletes the node an earlier session left and creates this session's, atomically (a ZooKeeper
     * multi). Dubbo deletes, then creates: between the two its consumers may read a list without the provider
     * and drop it. Should the old node go meanwhile (its session expired), the plain create is tried again.
     */
    private void replace(Registration r, long inSession) {
        async(cb -> client.transaction().inBackground(cb).forOperations(
                client.transactionOp().delete().forPath(r.path),
                client.transactionOp().create().withMode(CreateMode.EPHEMERAL).forPath(r.path, new byte[0])),
                replaced -> {
                    if (replaced.code() == Code.NONODE) {
                        r.busy = false;
                        sync(r); // the old node went by itself: create it plainly
                    } else {
                        createDone(r, inSession, replaced, "replace");
                    }
                });
    }

    private void createDone(Registration r, long inSession, Result result, String verb) {
        r.busy = false;
        if (result.ok()) {
            r.createdIn = inSession;
            r.refusalLogged = false;
            log.info("registered {}", r.url);
            warnIfOpen(r.path.substring(0, r.path.lastIndexOf('/')));
            sync(r); // unregistered meanwhile, or the session changed: one more step
            return;
        }
        if (!r.wanted) {
            sync(r); // unregistered meanwhile: nothing to retry
            return;
        }
        if (result.refused()) {
            String message = refusal(verb, r.path, result.code());
            if (!r.waiters.isEmpty()) {
                refuse(r, message); // at start: the caller hears it now
                return;
            }
            if (!r.refusalLogged) {
                r.refusalLogged = true;
                log.error("{}; trying again every {} s", message, RETRY_SECONDS);
            }
        } else {
            log.warn("cannot register {} yet ({}); retrying in {} s", r.url, result.code(), RETRY_SECONDS);
        }
        r.retryPending = true;
        executor.schedule(() -> {
            r.retryPending = false;
            sync(r);
        }, RETRY_SECONDS, TimeUnit.SECONDS);
        r.settled();
    }

    /** A refused registration whose caller waits: it is dropped, and the caller's register() throws. */
    private void refuse(Registration r, String message) {
        r.wanted = false;
        registered.remove(r.url);
        registrations.remove(r.url, r);
        RegistryRefusedException refused = new RegistryRefusedException(message);
        r.waiters.forEach(w -> w.completeExceptionally(refused));
        r.waiters.clear();
    }

    // ---- subscription ----

    /**
     * {@inheritDoc} The first list comes before this returns: from ZooKeeper, else (ZooKeeper away) from the cache
     * file.
     *
     * @throws RegistryRefusedException when ZooKeeper refuses to list the providers (NoAuth, AuthFailed)
     */
    @Override
    public void subscribe(ServiceKey key, ProviderListener listener) {
        ProvidersWatch watch = watches.computeIfAbsent(key.interfaceName(), ProvidersWatch::new);
        Subscription subscription = new Subscription(key, listener);
        watch.subscriptions.add(subscription);
        executor.execute(() -> watch.first(subscription));
        if (executor.isSchedulerThread() || !subscription.awaitFirst(waitMillis())) {
            watch.deliverCached(subscription);
        }
        String refusal = subscription.refusal();
        if (refusal != null) {
            watch.subscriptions.remove(subscription);
            throw new RegistryRefusedException(refusal);
        }
    }

    @Override
    public void unsubscribe(ServiceKey key, ProviderListener listener) {
        ProvidersWatch watch = watches.get(key.interfaceName());
        if (watch != null) {
            watch.subscriptions.remove(new Subscription(key, listener));
        }
    }

    /** How long a caller waits for the executor and ZooKeeper: twice the connection timeout. */
    private long waitMillis() {
        return options.connectionTimeout().toMillis() * 2;
    }

    /**
     * Waits for executor work, bounded; not on the executor's thread, where that work could not run. A refusal
     * reaches the caller; anything else is logged.
     */
    private void awaitQuietly(Future<?> future) {
        if (!executor.isSchedulerThread()) {
            awaitQuietly(future, waitMillis());
        }
    }

    private static void awaitQuietly(Future<?> future, long millis) {
        try {
            future.get(millis, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RegistryRefusedException refused) {
                throw new RegistryRefusedException(refused.getMessage(), refused); // with the caller's stack
            }
            log.warn("registry operation did not finish: {}", e.toString());
        } catch (TimeoutException e) {
            log.warn("registry operation did not finish: {}", e.toString());
        }
    }

    /** The providers of one interface: read with a one-shot watch, re-armed on every read. */
    private final class ProvidersWatch implements Watcher {
        private final String interfaceName;
        private final String path;
        final List<Subscription> subscriptions = new CopyOnWriteArrayList<>();
        /** The last list read from ZooKeeper, null before the first read (executor only). */
        private List<ServiceUrl> current;
        /** A read is in flight; another was asked for meanwhile (executor only). */
        private boolean reading;
        private boolean readAgain;
        /** A refusal was logged: its retries stay quiet until a read succeeds (executor only). */
        private boolean refusalLogged;

        ProvidersWatch(String interfaceName) {
            this.interfaceName = interfaceName;
            this.path = providersPath(interfaceName);
        }

        /** ZooKeeper's event thread: the children changed (or the node went); read them again. */
        @Override
        public void process(WatchedEvent event) {
            if (event.getType() != Event.EventType.None && !closed) {
                executor.execute(this::refresh);
            }
        }

        /** Executor: gives a new subscription its first list, now or when the read in flight comes back. */
        void first(Subscription s) {
            if (current != null) {
                s.deliver(matching(s.key, current), true);
            } else if (session == 0) {
                deliverCached(s);
            } else if (!reading) {
                refresh();
            }
        }

        /** Executor: reads the children and re-arms the watch; the result comes back in {@link #read}. */
        void refresh() {
            if (closed || session == 0) {
                return; // done on the next (re)connection
            }
            if (reading) {
                readAgain = true;
                return;
            }
            reading = true;
            async(cb -> client.getChildren().usingWatcher(this).inBackground(cb).forPath(path), this::read);
        }

        private void read(Result result) {
            reading = false;
            if (result.ok()) {
                refusalLogged = false;
                update(result.children());
                warnIfOpen(path);
            } else if (result.refused()) {
                refused("read", result.code());
            } else if (result.code() == Code.NONODE) {
                // subscribed before any provider: create the directory, persistent as Dubbo makes it, and read it
                reading = true;
                async(cb -> client.create().creatingParentsIfNeeded().inBackground(cb).forPath(path, new byte[0]),
                        created -> {
                            reading = false;
                            if (created.ok() || created.code() == Code.NODEEXISTS) {
                                refresh();
                            } else if (created.refused()) {
                                refused("create", created.code());
                            } else {
                                failed(created.code());
                            }
                        });
                return;
            } else {
                failed(result.code());
            }
            if (readAgain) {
                readAgain = false;
                refresh();
            }
        }

        private void failed(Code code) {
            log.warn("cannot read {} ({}); keeping the last list, trying again in {} s", path, code, RETRY_SECONDS);
            retryLater();
            subscriptions.forEach(this::deliverCached); // to those still waiting for a first list
        }

        /**
         * ZooKeeper refused a read or a create: the subscriptions still waiting for a first list fail with it (their
         * subscribe() throws); the others keep the last list, and the read is tried again.
         */
        private void refused(String verb, Code code) {
            String message = refusal(verb, path, code);
            boolean told = false;
            for (Subscription s : subscriptions) {
                told |= s.refuse(message) || s.refusal() != null; // refused now, or its subscribe() is throwing
            }
            if (!told && !refusalLogged) {
                refusalLogged = true;
                log.error("{}; keeping the last list, trying again every {} s", message, RETRY_SECONDS);
            }
            retryLater();
        }

        /** Reads again in a few seconds, unless nobody subscribes by then (a later subscription reads afresh). */
        private void retryLater() {
            executor.schedule(() -> {
                if (subscriptions.isEmpty()) {
                    current = null;
                } else {
                    refresh();
                }
            }, RETRY_SECONDS, TimeUnit.SECONDS);
        }

        private void update(List<String> children) {
            List<ServiceUrl> urls = new ArrayList<>();
            List<String> readable = new ArrayList<>();
            for (String child : children) {
                try {
                    urls.add(ServiceUrl.decode(child));
                    readable.add(child);
                } catch (IllegalArgumentException e) {
                    log.warn("ignoring unreadable provider node under {}: {}", path, e.getMessage());
                }
            }
            cache.put(interfaceName, readable);
            boolean changed = !urls.equals(current);
            current = urls;
            for (Subscription s : subscriptions) {
                if (changed || !s.live()) {
                    s.deliver(matching(s.key, urls), true);
                }
            }
        }

        /** Any thread: the cache file's list, to a subscription that has no list yet. */
        void deliverCached(Subscription s) {
            if (s.notified()) {
                return;
            }
            List<String> cached = cache.get(interfaceName);
            if (cached == null) {
                s.deliver(List.of(), false);
                return;
            }
            List<ServiceUrl> urls = new ArrayList<>();
            for (String encoded : cached) {
                try {
                    urls.add(ServiceUrl.decode(encoded));
                } catch (IllegalArgumentException e) {
                    log.warn("ignoring an unreadable entry of the registry cache for {}", interfaceName);
                }
            }
            if (s.deliver(matching(s.key, urls), false)) {
                log.info("providers of {} from the cache file until ZooKeeper answers: {}", interfaceName,
                        urls.size());
            }
        }

        private List<ProviderInstance> matching(ServiceKey key, List<ServiceUrl> urls) {
            List<ProviderInstance> providers = new ArrayList<>();
            for (ServiceUrl url : urls) {
                ProviderInstance p = ProviderInstance.from(url);
                if (p != null && p.interfaceName().equals(key.interfaceName()) && key.matches(p.version(), p.group())) {
                    providers.add(p);
                }
            }
            return List.copyOf(providers);
        }
    }

    /** One listener of one key. Deliveries are serialised here: the caller's cache-file fallback races the executor. */
    private static final class Subscription {
        final ServiceKey key;
        final ProviderListener listener;
        private final CountDownLatch first = new CountDownLatch(1);
        private boolean notified;
        /** It has had a list from ZooKeeper: the cache file no longer stands in. */
        private boolean live;
        /** Why ZooKeeper refused its first list, or null. */
        private String refusal;

        Subscription(ServiceKey key, ProviderListener listener) {
            this.key = key;
            this.listener = listener;
        }

        /** Delivers a list; one from the cache file only as the first; none after a refusal. True when delivered. */
        synchronized boolean deliver(List<ProviderInstance> providers, boolean fromZooKeeper) {
            if ((!fromZooKeeper && notified) || refusal != null) {
                return false;
            }
            notified = true;
            live |= fromZooKeeper;
            try {
                listener.providersChanged(providers);
            } finally {
                first.countDown();
            }
            return true;
        }

        /** Fails a subscription still waiting for its first list; true when it was waiting. */
        synchronized boolean refuse(String message) {
            if (notified) {
                return false;
            }
            notified = true;
            refusal = message;
            first.countDown();
            return true;
        }

        synchronized String refusal() {
            return refusal;
        }

        synchronized boolean notified() {
            return notified;
        }

        synchronized boolean live() {
            return live;
        }

        boolean awaitFirst(long millis) {
            try {
                return first.await(millis, TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Subscription s && s.key.equals(key) && s.listener == listener;
        }

        @Override
        public int hashCode() {
            return key.hashCode();
        }
    }

    // ---- connection state ----

    /** Curator's connection-state thread. */
    private void stateChanged(ConnectionState state) {
        log.info("ZooKeeper {} at {}", state, options.connectString());
        this.state.set(state.isConnected() ? RegistryState.CONNECTED
                : state == ConnectionState.SUSPENDED ? RegistryState.SUSPENDED : RegistryState.LOST);
        if (state.isConnected()) {
            unreachable = false;
            long id = sessionId();
            session = id;
            if (!closed && id != 0) {
                executor.execute(() -> reconcile(id));
            }
        } else {
            session = 0;
            if (!unreachable) {
                unreachableSinceNanos = ticker.nanoTime();
                unreachable = true;
            }
            scheduleTakeover();
        }
    }

    /**
     * The embedded server (an address with embedded=true) went away with the process hosting it. Every process
     * configured with it
     * tries to host it in turn; binding the port decides who does, and the others stay its clients. Curator then
     * reconnects to the new (empty) server, its session is new, and {@link #reconcile} re-creates this process's
     * registrations and subscriptions, as after any session expiry. Tried again every few seconds while the
     * connection stays down, spread at random so that a crowd of processes does not race in step.
     */
    private synchronized void scheduleTakeover() {
        if (!options.embedded() || closed || takeoverScheduled) {
            return;
        }
        long delay = ThreadLocalRandom.current().nextLong(200, 1000);
        takeoverScheduled = executor.schedule(this::takeOver, delay, TimeUnit.MILLISECONDS);
    }

    /**
     * Executor. The one task that blocks there, for development set-ups only (embedded=true, while disconnected):
     * a connection probe to the loopback port (refused at once when nothing listens), and in the round that wins
     * the port, starting the in-process server and a new ZooKeeper handle.
     */
    private void takeOver() {
        synchronized (this) {
            takeoverScheduled = false;
            if (closed || !unreachable) {
                refusedRounds = 0;
                return;
            }
        }
        InetSocketAddress address = options.addresses().get(0);
        boolean tookOver = false;
        if (embedded == null) {
            try {
                EmbeddedZooKeeper.Lease lease = EmbeddedZooKeeper.share(address,
                        () -> warnHosting("taking over from a host that went away, this process")).orElse(null);
                if (lease != null) {
                    embedded = lease;
                    tookOver = true;
                }
            } catch (RuntimeException e) {
                log.debug("could not host the embedded ZooKeeper: {}", e.toString());
            }
        }
        if (!unreachable) {
            refusedRounds = 0;
            return;
        }
        // a new server (ours or another process's) refuses a client that has seen newer data than it holds, and
        // the client would retry forever: start over with a fresh ZooKeeper handle (a new session, whose
        // registrations reconcile() re-creates) at once on a server of our own, after a few rounds on another's
        if (tookOver || (EmbeddedZooKeeper.isListening(address) && ++refusedRounds >= 3)) {
            refusedRounds = 0;
            try {
                log.info("ZooKeeper at {} listens but does not take this session; opening a new one",
                        options.connectString());
                client.getZookeeperClient().reset();
            } catch (Exception e) {
                log.debug("could not reset the ZooKeeper handle: {}", e.toString());
            }
        }
        scheduleTakeover(); // until connected again
    }

    /** Executor, after every (re)connection: brings every registration and subscription up to date. */
    private void reconcile(long connected) {
        if (connected != session) {
            return; // a later connection's own reconcile follows
        }
        if (connected != reconciledSession) {
            if (reconciledSession != 0) {
                log.info("new ZooKeeper session {} (was {}): re-creating {} registrations",
                        Long.toHexString(connected), Long.toHexString(reconciledSession), registered.size());
            }
            reconciledSession = connected;
        }
        for (Registration r : List.copyOf(registrations.values())) {
            r.retryPending = false; // reconnected: no need to wait out a retry
            sync(r);
        }
        watches.values().forEach(ProvidersWatch::refresh);
    }

    @Override
    public void close() {
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true; // the executor starts nothing new from here on
        }
        if (!unreachable) {
            // while unreachable there is nothing to delete now: the session's nodes go when it expires
            List<CompletableFuture<?>> deletes = new ArrayList<>();
            for (ServiceUrl url : registered) {
                CompletableFuture<Void> deleted = new CompletableFuture<>();
                try {
                    client.delete().inBackground((c, event) -> deleted.complete(null)).forPath(nodePath(url));
                } catch (Exception e) {
                    deleted.complete(null);
                }
                deletes.add(deleted);
            }
            awaitQuietly(CompletableFuture.allOf(deletes.toArray(CompletableFuture[]::new)), CLOSE_WAIT_MILLIS);
        }
        registered.clear();
        release();
    }
}
