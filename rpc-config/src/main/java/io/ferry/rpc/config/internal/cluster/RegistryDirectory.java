package io.ferry.rpc.config.internal.cluster;

import io.ferry.rpc.cluster.Endpoint;
import io.ferry.rpc.config.OutlierEjection;
import io.ferry.rpc.config.option.Resolved;
import io.ferry.rpc.registry.ProviderInstance;
import io.ferry.rpc.registry.ProviderListener;
import io.ferry.rpc.remoting.ProviderEndpoint;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * The providers of one reference as the registry announces them: an endpoint for each, opened when it is announced
 * and closed when it leaves, once its calls in flight are done.
 *
 * <h2>Empty-list protection</h2>
 * A registry that suddenly lists no provider while some still hold live connections is more likely wrong than right:
 * a registry bug, an operator deleting nodes, providers partitioned from ZooKeeper (their sessions expire) but not
 * from their consumers. With {@code emptyProtection} on, such a list is not taken:
 * <pre>
 *   TAKING ──empty list, some providers ready──► HOLDING (WARN once: the service, how many are kept)
 *     ▲  └─empty list, none ready: taken (empty)     │ a kept provider turns not ready (its connection lost, or
 *     │                                              │ readonly: it is shutting down): it goes; the last gone,
 *     └──── a non-empty list (taken as is) ◄─────────┘ the list is empty and HOLDING ends
 * </pre>
 * Only the providers ready when the empty list comes are kept: one whose provider already sent the readonly event
 * or whose connection is down goes at once. While holding, the kept providers are looked at every
 * {@value #HELD_CHECK_MILLIS} ms on the Ferry's timer; one no longer ready goes. A graceful shutdown unregisters and
 * then sends the readonly event, which arrives a moment after the empty list: so a scale-down to zero still empties
 * the list at once, and, since the WARN waits until kept providers have stayed ready for {@value #WARN_AFTER_MILLIS}
 * ms (on the Ferry's ticker), without a warning; a real episode warns once.
 *
 * <h2>Unlisted providers</h2>
 * A provider that leaves a list that is not empty while its connection is ready (its ZooKeeper session expired: a
 * partition between it and ZooKeeper, a long pause; or an operator deleted its node) is kept for up to
 * {@code unlistedGrace}, and goes at once when its connection fails or it says readonly (a graceful shutdown or an
 * {@code /offline} says so a moment after it unregisters: without a warning, as above). Listed again (it registered
 * again), it is an ordinary member; the grace over, it goes, as Dubbo's consumers let it go at once. A grace of zero
 * takes every list as it is. The same check runs every {@value #HELD_CHECK_MILLIS} ms while any is kept, and one
 * still ready after {@value #WARN_AFTER_MILLIS} ms is named once at WARN.
 */
public final class RegistryDirectory implements ClusterDirectory, ProviderListener {
    private static final Logger log = LoggerFactory.getLogger(RegistryDirectory.class);
    /** How often providers kept by empty-list protection are looked at while it holds. */
    static final long HELD_CHECK_MILLIS = 100;
    /**
     * How long kept providers must stay ready before the warning: a graceful shutdown unregisters, leaves the
     * registry and only then sends the readonly event, a ZooKeeper round trip or two after its consumers heard that
     * the list is empty (about 100 ms against an in-process ZooKeeper).
     */
    static final long WARN_AFTER_MILLIS = 1000;

    private final String service;
    private final ProviderEndpoints endpoints;
    private final Duration connectSpread;
    private final long drainMillis;
    private final Clocks clocks;
    private final Set<ProviderEndpoint> leaving = ConcurrentHashMap.newKeySet();
    private Map<String, Member> byAddress = new LinkedHashMap<>();
    private volatile List<Member> members = List.of();
    private volatile List<Endpoint> live = List.of();
    private volatile boolean closed;
    private final boolean emptyProtection;
    private final long unlistedGraceNanos;
    /** Providers kept while unlisted (not by empty-list protection): address → since when (guarded by this). */
    private final Map<String, Long> unlisted = new LinkedHashMap<>();
    /** Those of {@link #unlisted} named at WARN (guarded by this). */
    private final Set<String> unlistedWarned = new java.util.HashSet<>();
    private volatile int unlistedCount;
    /** Whether empty-list protection holds: the registry lists none, and {@link #members} are the providers kept. */
    private volatile boolean holding;
    /** Whether this episode of holding was logged (guarded by this). */
    private boolean warned;
    /** When, on the ticker, this episode of holding began (guarded by this). */
    private long heldSinceNanos;
    /** The check of the kept providers while holding or while any is kept unlisted (guarded by this). */
    private ScheduledFuture<?> keptCheck;

    private final Supplier<String> registry;
    private final Ejections ejections;
    private final ProviderCallSettings callSettings = new ProviderCallSettings();

    private record Member(ProviderInstance provider, ProviderEndpoint client, TrackedEndpoint tracked) {
    }

    /**
     * @param drainMillis the longest a provider that left may keep its calls in flight before its client closes
     * @param registry    describes the registry, for messages
     * @param clocks      the Ferry's time sources and its one timer (not this directory's to shut down)
     * @param protection what a list that drops providers still ready may not take away (see above)
     */
    public RegistryDirectory(String service, ProviderEndpoints endpoints, Duration connectSpread, long drainMillis,
                             OutlierEjection outlierEjection, Supplier<String> registry, Clocks clocks,
                             ListProtection protection) {
        this.service = service;
        this.emptyProtection = protection.empty();
        this.unlistedGraceNanos = protection.unlistedGrace().toNanos();
        this.registry = registry;
        this.clocks = clocks;
        this.ejections = new Ejections(outlierEjection, () -> live.size());
        this.endpoints = endpoints;
        this.connectSpread = connectSpread;
        this.drainMillis = drainMillis;
    }

    @Override
    public synchronized void providersChanged(List<ProviderInstance> providers) {
        if (closed) {
            return;
        }
        if (providers.isEmpty() && emptyProtection && hold()) {
            return;
        }
        if (holding) {
            stopHolding();
            log.info("{}: empty-list protection ends: the registry lists {} provider(s) again", service,
                    providers.size());
        }
        Map<String, Member> next = new LinkedHashMap<>();
        for (ProviderInstance provider : providers) {
            if (provider.disabled() || next.containsKey(provider.address())) {
                continue;
            }
            Member known = byAddress.get(provider.address());
            if (known != null && known.provider().sslEnabled() != provider.sslEnabled()) {
                // the port now speaks TLS only, or plain text only: its endpoint's connections cannot serve it any
                // more; a new endpoint speaks what the port speaks, and the old one drains (below) like a provider
                // that left
                known = null;
            }
            if (known != null && !known.client().isReady()) {
                known.client().reconnectSoon(connectSpread); // announced again (restarted): skip the back-off
            }
            // a newly announced provider: connect at a random moment in the spread window, so that thousands of
            // consumers told at once do not all knock on its accept queue in the same millisecond
            if (known != null) {
                boolean changed = known.provider().weight() != provider.weight()
                        || known.provider().startedAtMillis() != provider.startedAtMillis()
                        || known.provider().warmupMillis() != provider.warmupMillis()
                        || !Objects.equals(known.provider().token(), provider.token());
                if (changed) {
                    // a new weight, or a restart (a new timestamp, so a new warm-up; a new token): the same
                    // connections, seen afresh
                    known.tracked().outlier().removed();
                    known = new Member(provider, known.client(), tracked(provider, known.client()));
                } else {
                    known = new Member(provider, known.client(), known.tracked()); // its URL's other settings
                }
                next.put(provider.address(), known);
                continue;
            }
            ProviderEndpoint client = endpoints.open(provider, connectSpread);
            next.put(provider.address(), new Member(provider, client, tracked(provider, client)));
        }
        unlisted.keySet().removeAll(next.keySet()); // listed again: ordinary members
        unlistedWarned.retainAll(unlisted.keySet());
        int listed = next.size();
        long now = clocks.ticker().nanoTime();
        for (Map.Entry<String, Member> e : byAddress.entrySet()) {
            Member was = e.getValue();
            Member is = next.get(e.getKey());
            if (is == null && keepsUnlisted(e.getKey(), was, providers.isEmpty(), now)) {
                next.put(e.getKey(), was);
                unlisted.putIfAbsent(e.getKey(), now);
            } else if (is == null || is.client() != was.client()) {
                unlisted.remove(e.getKey());
                unlistedWarned.remove(e.getKey());
                retire(was);
            }
        }
        use(next);
        checkKeptWhileNeeded();
        log.info("{}: {} provider(s): {}{}", service, listed, providers.stream().map(ProviderInstance::address)
                .distinct().toList(), unlisted.isEmpty() ? "" : "; kept while unlisted: " + unlisted.keySet());
    }

    /** Whether a provider the list no longer names stays: its connection is ready and its grace is not over. */
    private boolean keepsUnlisted(String address, Member member, boolean listIsEmpty, long now) {
        if (listIsEmpty || unlistedGraceNanos <= 0 || !member.client().isReady()) {
            return false; // an empty list reaches this only when empty-list protection took it as it is
        }
        Long since = unlisted.get(address);
        return since == null || now - since < unlistedGraceNanos;
    }

    /** Calls go to {@code next} from now on. */
    private void use(Map<String, Member> next) {
        byAddress = next;
        unlistedCount = unlisted.size();
        members = List.copyOf(next.values());
        live = members.stream().map(m -> (Endpoint) m.tracked()).toList();
        callSettings.update(members.stream().map(Member::provider).toList());
        notifyAll(); // a reference waiting for a ready provider (check) looks again
    }

    /**
     * The registry lists no provider: keeps those whose connections are ready now and lets the others go. Returns
     * whether it keeps any (holding already, it keeps what it holds: the same episode, no new warning).
     */
    private boolean hold() {
        if (holding) {
            checkHeld(); // the same episode: no new warning
            return true;
        }
        Map<String, Member> ready = readyMembers();
        if (ready.isEmpty()) {
            return false; // nothing to keep: a scale-down to zero, or providers already gone
        }
        log.debug("{}: the registry lists no provider; keeping the {} (of {}) still ready", service, ready.size(),
                members.size());
        holding = true;
        warned = false;
        heldSinceNanos = clocks.ticker().nanoTime();
        keep(ready);
        checkKeptWhileNeeded();
        return true;
    }

    /** Starts the periodic check while providers are kept, and stops it when none is. */
    private void checkKeptWhileNeeded() {
        boolean needed = holding || !unlisted.isEmpty();
        if (needed && keptCheck == null) {
            keptCheck = clocks.timer().scheduleWithFixedDelay(this::checkKept, HELD_CHECK_MILLIS, HELD_CHECK_MILLIS,
                    TimeUnit.MILLISECONDS);
        } else if (!needed && keptCheck != null) {
            keptCheck.cancel(false);
            keptCheck = null;
        }
    }

    /**
     * Looks at the providers kept: by empty-list protection ({@link #checkHeld}), or unlisted ones, which go when
     * no longer ready or when their grace is over. Runs on the Ferry's timer; a test calls it directly.
     */
    synchronized void checkKept() {
        if (closed) {
            return;
        }
        if (holding) {
            checkHeld();
        } else {
            checkUnlisted();
        }
        checkKeptWhileNeeded();
    }

    private void checkUnlisted() {
        long now = clocks.ticker().nanoTime();
        Map<String, Member> next = new LinkedHashMap<>(byAddress);
        for (var it = unlisted.entrySet().iterator(); it.hasNext(); ) {
            Map.Entry<String, Long> e = it.next();
            Member m = byAddress.get(e.getKey());
            boolean ready = m.client().isReady();
            boolean over = now - e.getValue() >= unlistedGraceNanos;
            if (!ready || over) {
                if (over) {
                    log.warn("{}: {} is still not listed by the registry after unlistedGrace ({} ms): it goes", service,
                            e.getKey(), TimeUnit.NANOSECONDS.toMillis(unlistedGraceNanos));
                } else if (unlistedWarned.contains(e.getKey())) {
                    log.info("{}: {}, kept while unlisted, is no longer ready (its connection failed, or it is "
                            + "shutting down): it goes", service, e.getKey());
                }
                it.remove();
                unlistedWarned.remove(e.getKey());
                next.remove(e.getKey());
                retire(m);
            } else if (!unlistedWarned.contains(e.getKey())
                    && now - e.getValue() >= TimeUnit.MILLISECONDS.toNanos(WARN_AFTER_MILLIS)) {
                unlistedWarned.add(e.getKey());
                log.warn("{}: the registry no longer lists {}, but its connection lives: calls keep going to it for up "
                        + "to {} ms unless it is listed again, says readonly or its connection fails (unlistedGrace; "
                        + "its ZooKeeper session expired?)", service, e.getKey(),
                        TimeUnit.NANOSECONDS.toMillis(unlistedGraceNanos));
            }
        }
        if (next.size() != byAddress.size()) {
            use(next);
        }
    }

    /**
     * While holding: a kept provider that is no longer ready (its connection failed, or it said readonly: it is
     * shutting down) goes, as it would with the registry's list; with the last one gone, holding ends.
     */
    private void checkHeld() {
        if (!holding || closed) {
            return;
        }
        Map<String, Member> ready = readyMembers();
        if (ready.size() < members.size()) {
            for (Member m : members) {
                if (warned && !ready.containsKey(m.provider().address())) {
                    log.info("{}: {}, kept by empty-list protection, is no longer ready (its connection failed, or "
                            + "it is shutting down): it goes", service, m.provider().address());
                }
            }
            keep(ready);
        }
        if (ready.isEmpty()) {
            stopHolding();
            log.info(warned ? "{}: empty-list protection ends: no provider kept is left; calls fail NO_PROVIDER until "
                    + "the registry lists one" : "{}: the registry lists no provider, and the providers still "
                    + "connected when it said so are shutting down or gone", service);
        } else if (!warned && clocks.ticker().nanoTime() - heldSinceNanos
                >= TimeUnit.MILLISECONDS.toNanos(WARN_AFTER_MILLIS)) {
            warned = true;
            log.warn("{}: the registry lists no provider, but {} still have live connections: calls keep going to "
                            + "them until their connections fail or the registry lists a provider again (empty-list "
                            + "protection): {}", service, ready.size(), ready.keySet());
        }
    }

    private Map<String, Member> readyMembers() {
        Map<String, Member> ready = new LinkedHashMap<>();
        for (Member m : members) {
            if (m.client().isReady()) {
                ready.put(m.provider().address(), m);
            }
        }
        return ready;
    }

    /** Keeps {@code kept} of the members; the others go. */
    private void keep(Map<String, Member> kept) {
        unlisted.keySet().retainAll(kept.keySet());
        unlistedWarned.retainAll(kept.keySet());
        for (Map.Entry<String, Member> e : byAddress.entrySet()) {
            if (!kept.containsKey(e.getKey())) {
                retire(e.getValue());
            }
        }
        use(kept);
    }

    private void stopHolding() {
        holding = false;
        checkKeptWhileNeeded();
    }

    /** A provider gone, or its endpoint replaced: no new call goes to it, and it closes once idle. */
    private void retire(Member member) {
        leaving.add(member.client());
        member.tracked().outlier().removed();
        closeWhenIdle(member.client(), clocks.ticker().nanoTime() + TimeUnit.MILLISECONDS.toNanos(drainMillis));
    }

    @Override
    public Resolved.ProviderValues providerValues() {
        return callSettings;
    }

    @Override
    public String awaitReady(long timeoutNanos) throws InterruptedException {
        return ReadyCheck.await(() -> members.stream().map(Member::client).toList(), this, timeoutNanos,
                clocks.ticker());
    }

    private TrackedEndpoint tracked(ProviderInstance provider, ProviderEndpoint client) {
        return new TrackedEndpoint(client, provider.weight(), ejections, clocks.ticker(), clocks.wall()::millis,
                provider.startedAtMillis(), provider.warmupMillis(), provider.token());
    }

    /**
     * A provider left the registry: no new call goes to it; its client closes once its calls in flight are done
     * (checked twice a second), or at the latest after the drain time.
     */
    private void closeWhenIdle(ProviderEndpoint client, long deadlineNanos) {
        clocks.timer().schedule(() -> {
            if (closed) {
                return; // close() closed every client that was leaving
            }
            if (client.pendingCalls() > 0 && clocks.ticker().nanoTime() - deadlineNanos < 0) {
                closeWhenIdle(client, deadlineNanos);
            } else if (leaving.remove(client)) {
                client.close();
            }
        }, 500, TimeUnit.MILLISECONDS);
    }

    /** The providers calls may go to now. */
    public List<ProviderInstance> providers() {
        return members.stream().map(Member::provider).toList();
    }

    @Override
    public List<Endpoint> endpoints() {
        return live;
    }

    @Override
    public int ejected() {
        return ejections.ejected();
    }

    @Override
    public int listed() {
        return holding ? 0 : members.size() - unlistedCount;
    }

    @Override
    public int kept() {
        return holding ? members.size() : 0;
    }

    @Override
    public int keptUnlisted() {
        return holding ? 0 : unlistedCount;
    }

    @Override
    public String describe() {
        return holding ? registry.get() + ": no provider of " + service + " listed; " + members.size()
                + " kept by empty-list protection while their connections live"
                : registry.get() + ": " + listed() + " provider(s) of " + service + (unlistedCount == 0 ? ""
                : "; " + unlistedCount + " more kept while unlisted (connections live, for up to unlistedGrace)");
    }

    @Override
    public void close() {
        List<Member> all;
        synchronized (this) {
            closed = true;
            holding = false;
            unlisted.clear();
            checkKeptWhileNeeded();
            all = new ArrayList<>(byAddress.values());
            byAddress = new LinkedHashMap<>();
            members = List.of();
            live = List.of();
        }
        all.forEach(m -> m.client().close());
        for (ProviderEndpoint client : List.copyOf(leaving)) {
            if (leaving.remove(client)) {
                client.close();
            }
        }
    }
}
