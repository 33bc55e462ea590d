package io.ferry.rpc.registry;

import io.ferry.rpc.registry.internal.ProviderCache;
import io.ferry.rpc.registry.internal.QuietZooKeeperLogs;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.curator.retry.RetryNTimes;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.WatchedEvent;
import org.apache.zookeeper.Watcher;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A {@link Registry} on ZooKeeper, in Dubbo's interface-level layout:
 * <pre>
 * /dubbo/{interface}/providers/{URL-encoded provider URL}   ephemeral
 * /dubbo/{interface}/consumers/{URL-encoded consumer URL}   ephemeral
 * </pre>
 *
 * <p>Every ZooKeeper operation runs on one worker thread, in order. On each (re)connection the worker reconciles:
 * on a <em>new session</em> it deletes and re-creates every node this registry registered (a node of the expired
 * session can linger for a session timeout), and it re-reads every subscribed provider list. While ZooKeeper is
 * away (suspended, lost) subscribers keep the last list; every list read is also kept in a cache file, and a
 * subscription that cannot reach ZooKeeper starts from the cached list. Failed registrations are retried every
 * few seconds.
 */
public final class ZookeeperRegistry implements Registry {
    private static final Logger log = LoggerFactory.getLogger(ZookeeperRegistry.class);
    private static final long RETRY_SECONDS = 5;

    private final RegistryOptions options;
    private final CuratorFramework client;
    private final ProviderCache cache;
    private final ScheduledExecutorService worker;
    /** When the connection to ZooKeeper was lost (or first tried), 0 while connected. */
    private volatile long unreachableSinceNanos;
    /** How long close() waits for its registrations to be deleted: close stays quick whatever ZooKeeper does. */
    private static final long CLOSE_WAIT_MILLIS = 1000;
    private final Set<ServiceUrl> registered = ConcurrentHashMap.newKeySet();
    /** The session each registration's node was created in (worker thread only). */
    private final Map<ServiceUrl, Long> createdIn = new java.util.HashMap<>();
    private final Map<String, ProvidersWatch> watches = new ConcurrentHashMap<>();
    /** This process's share of the embedded server, when it hosts it (from the start, or since a takeover). */
    private volatile EmbeddedZooKeeper.Lease embedded;
    private boolean takeoverScheduled;
    /** Takeover rounds in a row that found a server listening while this client stayed disconnected. */
    private int refusedRounds;
    private volatile long sessionId;
    private volatile boolean closed;

    public ZookeeperRegistry(RegistryOptions options) {
        this.options = options;
        if (options.embedded()) {
            QuietZooKeeperLogs.apply(); // before the first client logs its environment
        }
        this.embedded = options.embedded() ? EmbeddedZooKeeper.share(options.addresses().get(0),
                () -> warnHosting("this process")).orElse(null) : null;
        this.cache = new ProviderCache(options.cacheFile());
        this.worker = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "ferry-registry");
            t.setDaemon(true);
            return t;
        });
        this.client = CuratorFrameworkFactory.builder()
                .connectString(options.connectString())
                .sessionTimeoutMs((int) options.sessionTimeout().toMillis())
                .connectionTimeoutMs((int) options.connectionTimeout().toMillis())
                // one retry, as Dubbo: every operation runs on the one worker thread, which must not stall;
                // what fails is retried by reconciliation on reconnection, or by the worker's own retries
                .retryPolicy(new RetryNTimes(1, 1000))
                .build();
        long startNanos = System.nanoTime();
        client.getConnectionStateListenable().addListener((c, state) -> stateChanged(state));
        client.start();
        try {
            if (!client.blockUntilConnected((int) options.connectionTimeout().toMillis(), TimeUnit.MILLISECONDS)) {
                unreachableSinceNanos = startNanos;
                log.warn("ZooKeeper at {} not reachable within {} ms; working from the cache file until it is",
                        options.connectString(), options.connectionTimeout().toMillis());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** One line, when this process starts hosting the embedded server and on each takeover: loud on purpose. */
    private void warnHosting(String who) {
        log.warn("{} hosts an in-process ZooKeeper at {}, as {} asks, for development only; to use a real one, run "
                + "ZooKeeper and give its address without embedded=true", who, options.connectString(), options);
    }

    @Override
    public String describe() {
        long since = unreachableSinceNanos;
        return "ZooKeeper " + options.connectString() + (options.embedded() ? " (embedded=true)" : "")
                + (since == 0 ? ""
                : ", unreachable for " + TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - since) + " s");
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

    // ---- registration ----

    /** Returns once the node exists, or (ZooKeeper away) once it is queued for the next connection. */
    @Override
    public void register(ServiceUrl url) {
        registered.add(url);
        awaitQuietly(worker.submit(() -> create(url)));
    }

    @Override
    public void unregister(ServiceUrl url) {
        registered.remove(url);
        Future<?> done = worker.submit(() -> delete(url));
        awaitQuietly(done);
    }

    private void create(ServiceUrl url) {
        if (closed || !registered.contains(url) || !client.getZookeeperClient().isConnected()) {
            return; // done on the next (re)connection
        }
        long session = sessionId();
        if (session != 0 && Long.valueOf(session).equals(createdIn.get(url))) {
            return; // already created in this session
        }
        String path = nodePath(url);
        try {
            try {
                client.delete().forPath(path); // a node of an earlier session may linger: ours replaces it
            } catch (KeeperException.NoNodeException absent) {
                // the usual case
            }
            client.create().creatingParentsIfNeeded().withMode(CreateMode.EPHEMERAL).forPath(path, new byte[0]);
            createdIn.put(url, session);
            log.info("registered {}", url);
        } catch (Exception e) {
            log.warn("cannot register {} yet ({}); retrying in {} s", url, e.toString(), RETRY_SECONDS);
            worker.schedule(() -> create(url), RETRY_SECONDS, TimeUnit.SECONDS);
        }
    }

    private void delete(ServiceUrl url) {
        createdIn.remove(url);
        try {
            client.delete().forPath(nodePath(url));
        } catch (KeeperException.NoNodeException absent) {
            // already gone
        } catch (Exception e) {
            log.warn("cannot unregister {}: {} (the node goes when the session ends)", url, e.toString());
        }
    }

    // ---- subscription ----

    @Override
    public void subscribe(ServiceKey key, ProviderListener listener) {
        ProvidersWatch watch = watches.computeIfAbsent(key.interfaceName(), ProvidersWatch::new);
        watch.add(key, listener);
        // the first list, before this returns: from ZooKeeper, else from the cache file
        Future<?> first = worker.submit(() -> {
            if (!watch.refresh()) {
                watch.deliverCached(key, listener);
            }
        });
        if (!awaitQuietly(first)) {
            // the worker is stuck on an unreachable ZooKeeper: start from the cache file now
            watch.deliverCached(key, listener);
        }
    }

    @Override
    public void unsubscribe(ServiceKey key, ProviderListener listener) {
        ProvidersWatch watch = watches.get(key.interfaceName());
        if (watch != null) {
            watch.remove(key, listener);
        }
    }

    /** Waits for a worker task, bounded; true when it finished. */
    private boolean awaitQuietly(Future<?> future) {
        return awaitQuietly(future, options.connectionTimeout().toMillis() * 2);
    }

    private boolean awaitQuietly(Future<?> future, long millis) {
        try {
            future.get(millis, TimeUnit.MILLISECONDS);
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException e) {
            log.warn("registry operation did not finish: {}", e.toString());
        }
        return false;
    }

    /** Creates a persistent path and its parents, as Dubbo does, unless it exists. */
    private void ensurePersistent(String path) throws Exception {
        if (client.checkExists().forPath(path) == null) {
            try {
                client.create().creatingParentsIfNeeded().forPath(path, new byte[0]);
            } catch (KeeperException.NodeExistsException raced) {
                // created meanwhile by another client
            }
        }
    }

    /** The providers of one interface: read with a one-shot watch, re-armed on every read. */
    private final class ProvidersWatch implements Watcher {
        private final String interfaceName;
        private final List<Subscription> subscriptions = new CopyOnWriteArrayList<>();
        private List<ServiceUrl> current;

        ProvidersWatch(String interfaceName) {
            this.interfaceName = interfaceName;
        }

        void add(ServiceKey key, ProviderListener listener) {
            subscriptions.add(new Subscription(key, listener));
        }

        void remove(ServiceKey key, ProviderListener listener) {
            subscriptions.remove(new Subscription(key, listener));
        }

        @Override
        public void process(WatchedEvent event) {
            if (event.getType() != Event.EventType.None && !closed) {
                worker.execute(this::refresh);
            }
        }

        /** Worker thread: reads the children and notifies; false when ZooKeeper could not be read. */
        boolean refresh() {
            if (closed || !client.getZookeeperClient().isConnected()) {
                return false;
            }
            String path = providersPath(interfaceName);
            try {
                ensurePersistent(path);
                List<String> children = client.getChildren().usingWatcher(this).forPath(path);
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
                update(urls);
                return true;
            } catch (Exception e) {
                log.warn("cannot read {} ({}); keeping the last list, trying again in {} s", path, e.toString(),
                        RETRY_SECONDS);
                worker.schedule(this::refresh, RETRY_SECONDS, TimeUnit.SECONDS);
                return false;
            }
        }

        void deliverCached(ServiceKey key, ProviderListener listener) {
            List<String> cached = cache.get(interfaceName);
            if (cached == null) {
                listener.providersChanged(List.of());
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
            log.info("providers of {} from the cache file until ZooKeeper answers: {}", interfaceName, urls.size());
            if (current == null) {
                current = urls;
            }
            listener.providersChanged(matching(key, urls));
        }

        private void update(List<ServiceUrl> urls) {
            boolean changed = !urls.equals(current);
            current = urls;
            for (Subscription s : subscriptions) {
                if (changed || !s.notified) {
                    s.notified = true;
                    s.listener.providersChanged(matching(s.key, urls));
                }
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

    private static final class Subscription {
        final ServiceKey key;
        final ProviderListener listener;
        boolean notified;

        Subscription(ServiceKey key, ProviderListener listener) {
            this.key = key;
            this.listener = listener;
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

    private void stateChanged(ConnectionState state) {
        log.info("ZooKeeper {} at {}", state, options.connectString());
        if (state.isConnected()) {
            unreachableSinceNanos = 0;
        } else {
            if (unreachableSinceNanos == 0) {
                unreachableSinceNanos = System.nanoTime();
            }
            scheduleTakeover();
        }
        if (state.isConnected() && !closed) {
            worker.execute(this::reconcile);
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
        takeoverScheduled = true;
        long delay = ThreadLocalRandom.current().nextLong(200, 1000);
        try {
            worker.schedule(this::takeOver, delay, TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException closing) {
            takeoverScheduled = false;
        }
    }

    private void takeOver() {
        synchronized (this) {
            takeoverScheduled = false;
            if (closed || unreachableSinceNanos == 0) {
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
        if (unreachableSinceNanos == 0) {
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

    /** Worker thread, after every (re)connection. */
    private void reconcile() {
        long current = sessionId();
        if (current == 0) {
            return;
        }
        if (current != sessionId) {
            if (sessionId != 0) {
                log.info("new ZooKeeper session {} (was {}): re-creating {} registrations",
                        Long.toHexString(current), Long.toHexString(sessionId), registered.size());
            }
            sessionId = current;
            registered.forEach(this::create);
        }
        watches.values().forEach(ProvidersWatch::refresh);
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        if (unreachableSinceNanos == 0) {
            // while unreachable there is nothing to delete now: the session's nodes go when it expires
            awaitQuietly(worker.submit(() -> registered.forEach(this::delete)), CLOSE_WAIT_MILLIS);
        }
        closed = true;
        registered.clear();
        worker.shutdownNow();
        client.close();
        EmbeddedZooKeeper.Lease hosted = embedded;
        if (hosted != null) {
            hosted.close();
        }
    }
}
