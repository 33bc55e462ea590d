package io.ferry.rpc.config.interop;

import com.fasterxml.jackson.databind.JsonNode;
import io.ferry.rpc.config.Ferry;
import io.ferry.rpc.config.ServiceConfig;
import io.ferry.rpc.config.fixtures.AdminClient;
import io.ferry.rpc.config.fixtures.WhoAmI;
import io.ferry.rpc.registry.ServiceUrl;
import org.apache.dubbo.config.ReferenceConfig;
import org.apache.dubbo.rpc.cluster.ClusterInvoker;
import org.apache.dubbo.rpc.cluster.Directory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A deploy's drain ("Draining a provider for a deploy" in the README) seen by a stock Dubbo 3.3.6 consumer that
 * finds two Ferry providers through ZooKeeper: {@code POST /offline} to one of them takes it out of the registry and
 * out of the consumer's choice, {@code POST /online} puts the very same URL back and the consumer calls it again,
 * with no call failing meanwhile.
 */
class DubboZooKeeperDrainInteropTest {
    private static final Duration CALLERS_RUN_AT_MOST = Duration.ofSeconds(90);
    private static final Duration DUBBO_HEARS_AT_MOST = Duration.ofSeconds(15);
    /** Dubbo's registry parameter {@code delay-notification}, as Dubbo 3.3.6 leaves it. */
    private static final Duration DUBBO_DELAY_NOTIFICATION = Duration.ofSeconds(5);

    @RegisterExtension
    static final DubboZooKeeperPeers PEERS = new DubboZooKeeperPeers();
    private final AdminClient admin = new AdminClient();

    @Test
    void aDubboConsumerLeavesAProviderTakenOfflineAndCallsItAgainAfterOnlineWithNoCallFailing() throws Exception {
        Counted a = new Counted("a");
        Counted b = new Counted("b");
        Ferry providerA = PEERS.ferryWithAdminPort("provider-a");
        int portA = providerA.export(ServiceConfig.builder(WhoAmI.class, a).build());
        int portB = PEERS.ferryWithAdminPort("provider-b").export(ServiceConfig.builder(WhoAmI.class, b).build());
        Set<ServiceUrl> bothRegistered = registered();
        assertEquals(Set.of(portA, portB), ports(bothRegistered));

        ReferenceConfig<WhoAmI> reference = DubboLoopback.reference(WhoAmI.class);
        reference.setRetries(2); // Dubbo's default: a call that meets a provider going away is tried on another
        PEERS.dubbo().application(DubboLoopback.application("dubbo-drain-consumer"))
                .registry(DubboLoopback.zooKeeper(PEERS.zooKeeper().port())).reference(reference).start();
        Directory<?> dubbosView = ((ClusterInvoker<?>) reference.getInvoker()).getDirectory();

        Callers callers = Callers.start(3, reference.get());
        try {
            await("Dubbo calls both providers").atMost(DUBBO_HEARS_AT_MOST)
                    .until(() -> a.calls() > 50 && b.calls() > 50);

            // offline: A leaves ZooKeeper, Dubbo drops its invoker and closes its connection, calls go to B
            long offlineSent = System.nanoTime();
            CompletableFuture<AdminClient.Answer> offlining = admin.send(providerA, "POST", "/offline");
            long dropped = awaitDubbosView(dubbosView, Set.of(portB), "Dubbo's directory dropped A");
            JsonNode offline = offlining.get(20, TimeUnit.SECONDS).json();
            assertTrue(offline.get("drained").asBoolean(), offline.toString());
            assertEquals(1, offline.get("unregistered").asInt(), offline.toString());
            // one connection to tell, as Dubbo shares one per provider; none when Dubbo, seeing A leave ZooKeeper
            // (Ferry unregisters first, as Dubbo does), closed it before the readonly event went out
            int readonlySent = offline.get("readonlySent").asInt();
            assertTrue(readonlySent == 1 || readonlySent == 0, "Dubbo shares one connection per provider: " + offline);
            assertEquals(Set.of(portB), ports(registered()), "A's URL left /dubbo/<service>/providers");
            await("Dubbo closed its connection to A").atMost(DUBBO_HEARS_AT_MOST)
                    .until(() -> consumerConnections(providerA) == 0);
            int aAfterOffline = a.calls();
            b.awaitMore(500);
            assertEquals(aAfterOffline, a.calls(), "no call reached A while it was offline");
            System.out.printf("offline: Dubbo's last call to A came %d ms after POST /offline was sent; its directory"
                    + " dropped A after %d ms; the answer: %s%n", TimeUnit.NANOSECONDS.toMillis(a.lastCallNanos()
                    - offlineSent), TimeUnit.NANOSECONDS.toMillis(dropped - offlineSent), offline);

            // online: the very same URL, timestamp included, is back (Dubbo's warm-up does not start again); with no
            // Dubbo connection left to tell, only the registry brings A back, a new invoker on a new connection
            a.mark();
            long onlineSent = System.nanoTime();
            JsonNode online = admin.post(providerA, "/online").json();
            assertEquals(1, online.get("registered").asInt(), online.toString());
            assertEquals(0, online.get("writableSent").asInt(), online.toString());
            assertEquals(bothRegistered, registered());
            long regained = awaitDubbosView(dubbosView, Set.of(portA, portB), "Dubbo's directory has A again");
            // Dubbo's ZooKeeper registry passes a consumer no two changes closer than its delay-notification (5 s)
            assertTrue(regained - dropped >= DUBBO_DELAY_NOTIFICATION.minusMillis(500).toNanos(),
                    "Dubbo heard A return " + TimeUnit.NANOSECONDS.toMillis(regained - dropped)
                            + " ms after it heard A leave");
            await("A takes calls again").atMost(DUBBO_HEARS_AT_MOST).until(() -> a.callsSinceMark() > 50);
            System.out.printf("online: Dubbo's directory had A again %d ms after POST /online was sent (%d ms after"
                    + " it dropped A); its first call to A came after %d ms; the answer: %s%n",
                    TimeUnit.NANOSECONDS.toMillis(regained - onlineSent),
                    TimeUnit.NANOSECONDS.toMillis(regained - dropped),
                    TimeUnit.NANOSECONDS.toMillis(a.firstCallSinceMarkNanos() - onlineSent), online);
        } finally {
            callers.stop();
        }
        assertEquals(List.of(), callers.failures(), "no call failed across offline and online");
        System.out.printf("%d calls, none failed: %d to A, %d to B%n", a.calls() + b.calls(), a.calls(), b.calls());
    }

    /** Waits until Dubbo's consumer holds invokers for exactly {@code ports}; returns when it was seen. */
    private static long awaitDubbosView(Directory<?> dubbosView, Set<Integer> ports, String alias) {
        await(alias).atMost(DUBBO_HEARS_AT_MOST).pollInterval(Duration.ofMillis(5))
                .until(() -> ports(dubbosView).equals(ports));
        return System.nanoTime();
    }

    private int consumerConnections(Ferry provider) throws Exception {
        return admin.get(provider, "/connections").json().get("provider").get("connections").size();
    }

    private static Set<ServiceUrl> registered() throws Exception {
        return Set.copyOf(PEERS.registeredProviders(WhoAmI.class));
    }

    private static Set<Integer> ports(Set<ServiceUrl> urls) {
        return urls.stream().map(ServiceUrl::port).collect(Collectors.toSet());
    }

    /** The providers Dubbo's consumer holds an invoker for, by port: what it last heard from the registry. */
    private static Set<Integer> ports(Directory<?> dubbosView) {
        return dubbosView.getAllInvokers().stream().map(i -> i.getUrl().getPort()).collect(Collectors.toSet());
    }

    private static long millisSince(long nanos) {
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - nanos);
    }

    /** A provider's implementation that counts the calls it receives and remembers when they came. */
    static final class Counted implements WhoAmI {
        private final String name;
        private final AtomicInteger calls = new AtomicInteger();
        private final AtomicInteger callsSinceMark = new AtomicInteger();
        private final AtomicLong firstSinceMark = new AtomicLong();
        private volatile long lastCall;

        Counted(String name) {
            this.name = name;
        }

        @Override
        public String who() {
            long now = System.nanoTime();
            lastCall = now;
            calls.incrementAndGet();
            if (callsSinceMark.getAndIncrement() == 0) {
                firstSinceMark.set(now);
            }
            return name;
        }

        @Override
        public String hold() {
            throw new UnsupportedOperationException();
        }

        int calls() {
            return calls.get();
        }

        long lastCallNanos() {
            return lastCall;
        }

        /** Starts counting afresh: {@link #callsSinceMark()} from 0, and the time of the first call after it. */
        void mark() {
            callsSinceMark.set(0);
        }

        int callsSinceMark() {
            return callsSinceMark.get();
        }

        long firstCallSinceMarkNanos() {
            return firstSinceMark.get();
        }

        void awaitMore(int more) {
            int target = calls() + more;
            await("another " + more + " calls to " + name).atMost(DUBBO_HEARS_AT_MOST)
                    .until(this::calls, n -> n >= target);
        }
    }

    /** Threads calling the reference back to back until stopped, or for {@link #CALLERS_RUN_AT_MOST} at most. */
    static final class Callers {
        private final AtomicBoolean running = new AtomicBoolean(true);
        private final ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
        private final CountDownLatch done;

        private Callers(int threads) {
            done = new CountDownLatch(threads);
        }

        static Callers start(int threads, WhoAmI who) {
            Callers callers = new Callers(threads);
            long deadline = System.nanoTime() + CALLERS_RUN_AT_MOST.toNanos();
            for (int t = 0; t < threads; t++) {
                Thread caller = new Thread(() -> {
                    while (callers.running.get() && System.nanoTime() - deadline < 0) {
                        try {
                            who.who();
                        } catch (Throwable e) {
                            callers.failures.add(e);
                        }
                    }
                    callers.done.countDown();
                }, "dubbo-caller-" + t);
                caller.setDaemon(true);
                caller.start();
            }
            return callers;
        }

        void stop() throws InterruptedException {
            running.set(false);
            assertTrue(done.await(30, TimeUnit.SECONDS), "the callers stopped");
        }

        List<Throwable> failures() {
            return new ArrayList<>(failures);
        }
    }
}
