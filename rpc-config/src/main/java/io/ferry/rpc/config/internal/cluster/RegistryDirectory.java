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
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * The providers of one reference as the registry announces them: an endpoint for each, opened when it is announced
 * and closed when it leaves, once its calls in flight are done.
 */
public final class RegistryDirectory implements ClusterDirectory, ProviderListener {
    private static final Logger log = LoggerFactory.getLogger(RegistryDirectory.class);

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

    private final Supplier<String> registry;
    private final Ejections ejections;
    private final ProviderCallSettings callSettings = new ProviderCallSettings();

    private record Member(ProviderInstance provider, ProviderEndpoint client, TrackedEndpoint tracked) {
    }

    /**
     * @param drainMillis the longest a provider that left may keep its calls in flight before its client closes
     * @param registry    describes the registry, for messages
     * @param clocks      the Ferry's time sources and its one timer (not this directory's to shut down)
     */
    public RegistryDirectory(String service, ProviderEndpoints endpoints, Duration connectSpread, long drainMillis,
                             OutlierEjection outlierEjection, Supplier<String> registry, Clocks clocks) {
        this.service = service;
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
        if (providers.isEmpty() && members.stream().anyMatch(m -> m.client().isReady())) {
            // empty-list protection: a registry that suddenly lists nobody (a provider's session expired in a
            // partition from ZooKeeper only, a wiped node) does not stop calls to providers that still answer;
            // a provider really leaving says so on its connections (readonly) and is skipped anyway
            log.warn("{}: the registry lists no provider, keeping the {} that still answer", service,
                    members.size());
            return;
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
        for (Map.Entry<String, Member> e : byAddress.entrySet()) {
            Member now = next.get(e.getKey());
            if (now == null || now.client() != e.getValue().client()) {
                retire(e.getValue());
            }
        }
        byAddress = next;
        members = List.copyOf(next.values());
        live = members.stream().map(m -> (Endpoint) m.tracked()).toList();
        callSettings.update(members.stream().map(Member::provider).toList());
        log.info("{}: {} provider(s): {}", service, members.size(), next.keySet());
        notifyAll(); // a reference waiting for a ready provider (check) looks again
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
        return members.size();
    }

    @Override
    public String describe() {
        return registry.get() + ": " + members.size() + " provider(s) of " + service;
    }

    @Override
    public void close() {
        List<Member> all;
        synchronized (this) {
            closed = true;
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
