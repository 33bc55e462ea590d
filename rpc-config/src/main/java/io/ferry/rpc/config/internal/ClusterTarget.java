package io.ferry.rpc.config.internal;

import io.ferry.rpc.RpcException;
import io.ferry.rpc.RpcStatus;
import io.ferry.rpc.registry.ProviderInstance;
import io.ferry.rpc.registry.ProviderListener;
import io.ferry.rpc.remoting.ClientOptions;
import io.ferry.rpc.remoting.OutboundCall;
import io.ferry.rpc.remoting.ProviderClient;
import io.ferry.rpc.remoting.internal.exchange.Reply;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.time.Duration;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The providers of one reference, as the registry announces them, and the choice among them: weighted random
 * among those ready to take a call now (connected, not shutting down), else among all. A call that provably did
 * not run on the chosen provider ({@link RpcException#isNotExecuted()}: no connection, a failed write, a full
 * pool) moves at once to another one not yet tried, within the same deadline. A call that may have run is never
 * repeated here: that decision belongs to the cluster issue's failover policy and retry budget.
 *
 * <p>Providers that leave are closed only after the longest a call may wait on them, so calls in flight finish.
 */
public final class ClusterTarget implements CallTarget, ProviderListener {
    private static final Logger log = LoggerFactory.getLogger(ClusterTarget.class);

    private final String service;
    private final ClientOptions options;
    private final Duration connectSpread;
    private final long drainMillis;
    private final ScheduledExecutorService closer;
    private final Set<ProviderClient> leaving = ConcurrentHashMap.newKeySet();
    private Map<String, Member> byAddress = new LinkedHashMap<>();
    private volatile List<Member> members = List.of();
    private boolean closed;

    private record Member(ProviderInstance provider, ProviderClient client) {
    }

    public ClusterTarget(String service, ClientOptions options, Duration connectSpread, long drainMillis) {
        this.service = service;
        this.options = options;
        this.connectSpread = connectSpread;
        this.drainMillis = drainMillis;
        this.closer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "ferry-directory-" + service);
            t.setDaemon(true);
            return t;
        });
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
            if (known != null && !known.client().isReady()) {
                known.client().reconnectSoon(connectSpread); // announced again (restarted): skip the back-off
            }
            // a newly announced provider: connect at a random moment in the spread window, so that thousands of
            // consumers told at once do not all knock on its accept queue in the same millisecond
            ProviderClient client = known != null ? known.client() : ProviderClient.open(
                    new InetSocketAddress(provider.host(), provider.port()), options, connectSpread);
            next.put(provider.address(), new Member(provider, client));
        }
        for (Map.Entry<String, Member> e : byAddress.entrySet()) {
            if (!next.containsKey(e.getKey())) {
                ProviderClient client = e.getValue().client();
                leaving.add(client);
                closeWhenIdle(client, System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(drainMillis));
            }
        }
        byAddress = next;
        members = List.copyOf(next.values());
        log.info("{}: {} provider(s): {}", service, members.size(), next.keySet());
    }

    /**
     * A provider left the registry: no new call goes to it; its client closes once its calls in flight are done
     * (checked twice a second), or at the latest after the drain time.
     */
    private void closeWhenIdle(ProviderClient client, long deadlineNanos) {
        closer.schedule(() -> {
            if (client.pendingCalls() > 0 && System.nanoTime() < deadlineNanos) {
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
    public CompletableFuture<Reply> invoke(OutboundCall call, Executor executor) {
        CompletableFuture<Reply> result = new CompletableFuture<>();
        attempt(call, executor, result, new HashSet<>(), System.nanoTime(), null);
        return result;
    }

    private void attempt(OutboundCall call, Executor executor, CompletableFuture<Reply> result, Set<String> tried,
                         long start, RpcException previous) {
        long remaining = call.timeoutNanos() - (System.nanoTime() - start);
        Member member = remaining > 0 ? select(tried) : null;
        if (member == null) {
            result.completeExceptionally(noProvider(call, tried, previous, remaining <= 0));
            return;
        }
        tried.add(member.provider().address());
        OutboundCall thisTry = tried.size() == 1 ? call : new OutboundCall(call.service(), call.method(),
                call.version(), call.arguments(), call.attachments(), remaining, call.oneway());
        member.client().invoke(thisTry, executor).whenComplete((reply, error) -> {
            if (error == null) {
                result.complete(reply);
            } else if (error instanceof RpcException rpc && rpc.isNotExecuted()) {
                log.debug("{} did not run on {} ({}); trying another provider", call.description(),
                        member.provider().address(), rpc.getMessage());
                attempt(call, executor, result, tried, start, rpc);
            } else {
                result.completeExceptionally(error);
            }
        });
    }

    private static RpcException noProvider(OutboundCall call, Set<String> tried, RpcException previous,
                                           boolean outOfTime) {
        if (tried.isEmpty()) {
            return RpcException.notExecuted(RpcStatus.NO_PROVIDER, "no provider of " + call.service().name()
                    + " is available for " + call.description(), null);
        }
        if (tried.size() == 1 && previous != null) {
            return previous;
        }
        return RpcException.notExecuted(previous != null ? previous.status() : RpcStatus.NO_PROVIDER,
                call.description() + " ran on none of the " + tried.size() + " provider(s) tried " + tried
                        + (outOfTime ? " before its deadline" : "") + (previous != null ? "; last: "
                        + previous.getMessage() : ""), previous);
    }

    /** Weighted random among untried ready providers; among untried others when none is ready. */
    private Member select(Set<String> tried) {
        List<Member> candidates = new ArrayList<>();
        for (Member m : members) {
            if (!tried.contains(m.provider().address()) && m.client().isReady()) {
                candidates.add(m);
            }
        }
        if (candidates.isEmpty()) {
            for (Member m : members) {
                if (!tried.contains(m.provider().address())) {
                    candidates.add(m);
                }
            }
        }
        if (candidates.isEmpty()) {
            return null;
        }
        int total = 0;
        for (Member m : candidates) {
            total += m.provider().weight();
        }
        if (total <= 0) {
            return candidates.get(ThreadLocalRandom.current().nextInt(candidates.size()));
        }
        int pick = ThreadLocalRandom.current().nextInt(total);
        for (Member m : candidates) {
            pick -= m.provider().weight();
            if (pick < 0) {
                return m;
            }
        }
        return candidates.get(candidates.size() - 1);
    }

    @Override
    public String describe() {
        return "registry (" + members.size() + " provider(s))";
    }

    @Override
    public void close() {
        List<Member> all;
        synchronized (this) {
            closed = true;
            all = new ArrayList<>(byAddress.values());
            byAddress = new LinkedHashMap<>();
            members = List.of();
        }
        closer.shutdownNow();
        all.forEach(m -> m.client().close());
        for (ProviderClient client : List.copyOf(leaving)) {
            if (leaving.remove(client)) {
                client.close();
            }
        }
    }
}
