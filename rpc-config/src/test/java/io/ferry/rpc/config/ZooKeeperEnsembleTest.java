package io.ferry.rpc.config;

import io.ferry.rpc.config.fixtures.ChildProviders;
import io.ferry.rpc.config.fixtures.ChildProviders.ConsumerChild;
import io.ferry.rpc.config.fixtures.ChildProviders.Report;
import io.ferry.rpc.config.fixtures.WhoAmI;
import io.ferry.rpc.config.fixtures.ZooKeeperEnsemble;
import io.ferry.rpc.config.fixtures.ZooKeeperEnsemble.NodeEvent;
import io.ferry.rpc.registry.ServiceUrl;
import org.apache.zookeeper.Watcher.Event.EventType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Ferry against a real three-server ZooKeeper ensemble ({@link ZooKeeperEnsemble}: three {@code QuorumPeerMain}
 * JVMs), with two providers and a consumer in JVMs of their own; the consumer's two callers call without end while
 * servers die, elections run and sessions expire. Sessions last {@link #SESSION}. Each scenario prints its figures
 * (a line starting with {@code ENSEMBLE}) and asserts its bounds; a node "unregistered" is one deleted by a
 * ZooKeeper transaction that did not create it again, as the servers' transaction logs show.
 */
class ZooKeeperEnsembleTest {
    /**
     * Short, so that a quorum can be lost for longer than a session within seconds; not shorter, because
     * re-registering after an expiry takes a ZooKeeper client's reconnection (a second per round over the
     * servers), a new session and two round trips, which on a starved 2-core machine (load average 20) took up to
     * 4.4 s.
     */
    private static final Duration SESSION = Duration.ofSeconds(6);
    /** Starting a JVM, an election, a reconnection: generous for a loaded 2-core machine. */
    private static final Duration LIMIT = Duration.ofSeconds(30);
    private static final Duration POLL = Duration.ofMillis(100);

    // in this order: after each test the children stop first, while the ensemble still runs
    @RegisterExtension
    final ZooKeeperEnsemble ensemble = new ZooKeeperEnsemble();
    @RegisterExtension
    final ChildProviders children = new ChildProviders();

    private ConsumerChild consumer;

    /** Two providers on the whole ensemble and a consumer calling both. */
    private void twoProvidersAndAConsumer() throws Exception {
        children.start(ensemble.address(), SESSION, "a");
        children.start(ensemble.address(), SESSION, "b");
        consumer = children.startConsumer(ensemble.address(), SESSION, 2);
        awaitCalling(Set.of("a", "b"));
    }

    /** Waits until the consumer's calls reach each of {@code providers}, and it knows no other. */
    private void awaitCalling(Set<String> providers) throws Exception {
        Report before = consumer.report();
        await("calls reaching " + providers).atMost(LIMIT).pollInterval(POLL).until(() -> {
            Report now = consumer.report();
            return now.known() == providers.size()
                    && providers.stream().allMatch(p -> now.answersOf(p) > before.answersOf(p));
        });
    }

    @Test
    void killingTheLeaderFailsNoCallAndKeepsRegistrationsAndSubscriptions() throws Exception {
        twoProvidersAndAConsumer();
        Report before = consumer.report();
        int leader = ensemble.leader();
        long killed = System.currentTimeMillis();
        ensemble.kill(leader);
        AtomicReference<Integer> next = new AtomicReference<>();
        await("a new leader").atMost(LIMIT).pollInterval(Duration.ofMillis(50)).until(() -> {
            IntStream.range(0, ZooKeeperEnsemble.SIZE).filter(i -> i != leader)
                    .filter(i -> ensemble.mode(i).filter("leader"::equals).isPresent()).findFirst()
                    .ifPresent(next::set);
            return next.get() != null;
        });
        long elected = System.currentTimeMillis() - killed;
        awaitCalling(Set.of("a", "b"));

        // a subscription that survived the election still hears of a change
        long started = System.currentTimeMillis();
        children.start(ensemble.address(), SESSION, "c");
        awaitCalling(Set.of("a", "b", "c"));
        long heard = System.currentTimeMillis() - started;
        Report after = consumer.report();

        print("leader killed", before, after, "server " + (leader + 1) + " led; server " + (next.get() + 1)
                + " leads " + elected + " ms after; a provider started after it was called within " + heard + " ms");
        assertEquals(0, after.failures() - before.failures(), after.firstMessage());
        assertEquals(List.of(), unregistered(), "no registration lost to the election");
        assertEquals(Set.of("c"), createdSince(killed).keySet().stream().map(ZooKeeperEnsembleTest::nameOf)
                .collect(Collectors.toSet()), "the sessions survived: only the new provider's node was created");
        assertEquals(Set.of("a", "b", "c"), listedNames(), "all three listed");
    }

    @Test
    void quorumLostLongerThanASessionKeepsProvidersAndListsThemAgainWithinASession() throws Exception {
        twoProvidersAndAConsumer();
        Report before = consumer.report();
        int leader = ensemble.leader();
        int follower = (leader + 1) % ZooKeeperEnsemble.SIZE;
        ensemble.kill(follower);
        awaitCalling(Set.of("a", "b"));
        ensemble.kill(leader); // one server of three left: no quorum
        long lost = System.currentTimeMillis();

        // away for longer than a session: the consumer keeps its directory, and its calls keep reaching both
        Duration away = SESSION.plusSeconds(2);
        AtomicReference<Report> during = new AtomicReference<>(before);
        await("calls to both providers while the ensemble is away").during(away).atMost(away.plusSeconds(10))
                .pollInterval(Duration.ofMillis(500)).until(() -> {
                    Report now = consumer.report();
                    boolean keeps = now.known() == 2 && now.ready() == 2 && now.failures() == before.failures();
                    during.set(now);
                    return keeps;
                });
        Report away1 = during.get();
        assertTrue(away1.answersOf("a") > before.answersOf("a") && away1.answersOf("b") > before.answersOf("b"),
                "calls reached both providers while the ensemble was away: " + before + " -> " + away1);

        ensemble.start(follower);
        ensemble.start(leader);
        await("a quorum again").atMost(LIMIT).pollInterval(Duration.ofMillis(50))
                .until(() -> IntStream.range(0, ZooKeeperEnsemble.SIZE)
                        .filter(i -> ensemble.mode(i).isPresent()).count() >= 2);
        // the quorum's return: when this thread saw it, or the first commit after the loss if that came sooner
        long back = Math.min(System.currentTimeMillis(), ensemble.firstCommitAfter(lost).orElse(Long.MAX_VALUE));
        // re-registered: each provider's node created again in a new session (nothing is written without a quorum)
        await("both providers registered again").atMost(LIMIT).pollInterval(POLL)
                .until(() -> createdSince(lost).size() == 2);
        Map<String, Long> delays = new TreeMap<>();
        createdSince(lost).forEach((node, at) -> delays.put(nameOf(node), at - back));

        // the old sessions expire one session after the quorum came back: the nodes made again stay
        Duration expiry = SESSION.plusSeconds(1);
        await("both listed while the old sessions expire").during(expiry).atMost(expiry.plus(LIMIT))
                .pollInterval(Duration.ofMillis(500)).until(() -> listedNames().equals(Set.of("a", "b")));
        long creations = creationsSince(lost);
        // consumers subscribed again: they hear of a new provider
        long started = System.currentTimeMillis();
        children.start(ensemble.address(), SESSION, "c");
        awaitCalling(Set.of("a", "b", "c"));
        long heard = System.currentTimeMillis() - started;
        Report after = consumer.report();

        print("quorum lost", before, after, "away " + (back - lost) + " ms; listed again after the quorum's return: "
                + delays + " ms; creations of their nodes: " + creations
                + "; a provider started afterwards was called within " + heard + " ms");
        assertEquals(0, after.failures() - before.failures(), after.firstMessage());
        assertEquals(List.of(), unregistered(), "nothing unregistered");
        assertEquals(2, creations, "each provider's node created once in its new session");
        delays.values().forEach(d -> assertTrue(d <= SESSION.toMillis(), "listed again within a session: " + delays));
    }

    @Test
    void aRollingRestartOfAllThreeServersFailsNoCall() throws Exception {
        twoProvidersAndAConsumer();
        Report before = consumer.report();
        List<Long> restarts = new ArrayList<>();
        for (int i = 0; i < ZooKeeperEnsemble.SIZE; i++) {
            long at = System.currentTimeMillis();
            ensemble.kill(i);
            ensemble.start(i);
            ensemble.awaitServing(i, LIMIT);
            restarts.add(System.currentTimeMillis() - at);
        }
        awaitCalling(Set.of("a", "b"));
        Report after = consumer.report();

        print("rolling restart", before, after, "each server killed and serving again after " + restarts + " ms");
        assertEquals(0, after.failures() - before.failures(), after.firstMessage());
        assertEquals(List.of(), unregistered(), "nothing unregistered");
        assertEquals(Set.of("a", "b"), listedNames());
    }

    @Test
    void aProviderWhoseSessionExpiresRegistersAgainAndIsCalledThroughout() throws Exception {
        // "cut" knows one server only: killing it cuts that provider off from ZooKeeper, not from its consumer, and
        // the two servers left expire its session, while "steady" stays listed. The registry then lists steady
        // alone; the consumer keeps calling cut all the same (its connection lives: unlistedGrace) until it
        // registers again
        int cutOff = (ensemble.leader() + 1) % ZooKeeperEnsemble.SIZE;
        children.start(ensemble.address(cutOff), SESSION, "cut");
        children.start(ensemble.address(), SESSION, "steady");
        consumer = children.startConsumer(ensemble.address(), SESSION, 2);
        awaitCalling(Set.of("cut", "steady"));
        Report before = consumer.report();

        ensemble.kill(cutOff);
        long killed = System.currentTimeMillis();
        await("the provider's session expired").atMost(LIMIT).pollInterval(POLL)
                .until(() -> ensemble.providers(WhoAmI.class).filter(l -> l.size() == 1).isPresent());
        long expired = System.currentTimeMillis() - killed;
        assertEquals(Set.of("steady"), listedNames());
        Report unlisted = consumer.report();
        await("calls to the provider while it is not listed").atMost(LIMIT).pollInterval(POLL).until(() -> {
            Report now = consumer.report();
            return now.known() == 2 && now.answersOf("cut") > unlisted.answersOf("cut") + 100;
        });
        Report whileUnlisted = consumer.report();

        ensemble.start(cutOff);
        ensemble.awaitServing(cutOff, LIMIT);
        long back = System.currentTimeMillis();
        // its node's one creation since its session expired (the time this thread saw the server serve may come
        // after the provider did: then the delay is at most 0)
        await("registered again").atMost(LIMIT).pollInterval(POLL).until(() -> createdSince(killed).size() == 1);
        long delay = createdSince(killed).values().iterator().next() - back;
        awaitCalling(Set.of("cut", "steady"));
        Report after = consumer.report();

        print("provider session expired", before, after, "session expired " + expired + " ms after its server went;"
                + " while unlisted it answered " + (whileUnlisted.answersOf("cut") - unlisted.answersOf("cut"))
                + " calls and the consumer knew " + whileUnlisted.known() + " provider(s); registered again "
                + delay + " ms after its server served again; creations: " + creationsSince(killed));
        assertEquals(0, after.failures() - before.failures(), after.firstMessage());
        assertEquals(2, whileUnlisted.known(), "the consumer keeps the provider the registry stopped listing");
        assertEquals(1, creationsSince(killed), "registered again once");
        assertTrue(delay <= SESSION.toMillis(), "registered again within a session: " + delay + " ms");
        assertEquals(Set.of("cut", "steady"), listedNames());
    }

    // ---- figures ----

    private static void print(String scenario, Report before, Report after, String figures) {
        long calls = after.calls() - before.calls();
        long failures = after.failures() - before.failures();
        System.out.println("ENSEMBLE " + scenario + ": " + calls + " calls, " + failures + " failed"
                + (failures == 0 ? "" : " (from " + after.firstFailure() + " to " + after.lastFailure()
                + " ms, recovered in " + (after.lastFailure() - after.firstFailure()) + " ms; first: "
                + after.firstMessage() + ")") + "; " + figures);
    }

    /** Provider nodes deleted by a transaction that did not create them again. */
    private List<NodeEvent> unregistered() throws IOException {
        List<NodeEvent> events = ensemble.history(WhoAmI.class);
        return events.stream().filter(e -> e.type() == EventType.NodeDeleted)
                .filter(d -> events.stream().noneMatch(c -> c.type() == EventType.NodeCreated
                        && c.zxid() == d.zxid() && c.node().equals(d.node())))
                .toList();
    }

    /** Each node created since {@code since} (epoch ms), with when it was created last. */
    private Map<String, Long> createdSince(long since) throws IOException {
        return ensemble.history(WhoAmI.class).stream()
                .filter(e -> e.type() == EventType.NodeCreated && e.atMillis() >= since)
                .collect(Collectors.toMap(NodeEvent::node, NodeEvent::atMillis, Math::max, TreeMap::new));
    }

    private long creationsSince(long since) throws IOException {
        return ensemble.history(WhoAmI.class).stream()
                .filter(e -> e.type() == EventType.NodeCreated && e.atMillis() >= since).count();
    }

    private Set<String> listedNames() {
        return ensemble.providers(WhoAmI.class).orElseThrow().stream().map(u -> nameOf(u.encoded()))
                .collect(Collectors.toCollection(java.util.TreeSet::new));
    }

    /** The provider's name, from its application (provider-{name}). */
    private static String nameOf(String encodedNode) {
        return ServiceUrl.decode(encodedNode).parameter("application", "?").substring("provider-".length());
    }
}
