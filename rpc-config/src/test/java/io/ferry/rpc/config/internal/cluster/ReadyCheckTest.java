package io.ferry.rpc.config.internal.cluster;

import io.ferry.rpc.Invocation;
import io.ferry.rpc.Result;
import io.ferry.rpc.RpcException;
import io.ferry.rpc.RpcStatus;
import io.ferry.rpc.remoting.ProviderEndpoint;
import org.junit.jupiter.api.Test;

import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Dubbo's check over providers whose connects the test decides: ready, refused, or still under way. */
class ReadyCheckTest {
    /** The check's timeout: an hour, so that a check that ends at all did not wait it out. */
    private static final long AN_HOUR = TimeUnit.HOURS.toNanos(1);

    private final Object monitor = new Object();

    private static RpcException refused(String address) {
        return RpcException.notExecuted(RpcStatus.NETWORK, "cannot connect to /" + address
                + ": connection refused (nothing listens there)", new ConnectException("Connection refused"));
    }

    @Test
    void whenEveryProviderRefusesTheCheckEndsAtOnceNamingThem() throws Exception {
        Provider a = new Provider("127.0.0.1:1001", CompletableFuture.failedFuture(refused("127.0.0.1:1001")));
        Provider b = new Provider("127.0.0.1:1002", CompletableFuture.failedFuture(refused("127.0.0.1:1002")));

        String why = ReadyCheck.await(() -> List.of(a, b), monitor, AN_HOUR);

        assertTrue(why.startsWith("refused at once by every provider: 127.0.0.1:1001 (cannot connect to"), why);
        assertTrue(why.contains("127.0.0.1:1002 (cannot connect to /127.0.0.1:1002: connection refused"), why);
    }

    @Test
    void oneProviderRefusingDoesNotFailTheCheckWhileAnotherIsStillConnecting() throws Exception {
        Provider a = new Provider("127.0.0.1:1001", CompletableFuture.failedFuture(refused("127.0.0.1:1001")));
        Provider b = new Provider("127.0.0.1:1002", new CompletableFuture<>());
        CompletableFuture<String> check = CompletableFuture.supplyAsync(() -> {
            try {
                return ReadyCheck.await(() -> List.of(a, b), monitor, AN_HOUR);
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        // a's refusal is seen when it is watched, before b is: once b is watched, a's refusal is known
        await("the check watches b's connect").atMost(Duration.ofSeconds(30)).until(() -> b.asked.get() > 0);

        b.ready = true;
        b.attempt.complete(null); // the attempt's callback tells the check
        assertNull(check.get(1, TimeUnit.MINUTES), "b became ready: the check passes");
    }

    @Test
    void aFailureOtherThanARefusalKeepsTheCheckWaitingForItsTimeout() throws Exception {
        Provider a = new Provider("127.0.0.1:1001", CompletableFuture.failedFuture(refused("127.0.0.1:1001")));
        Provider b = new Provider("127.0.0.1:1002", CompletableFuture.failedFuture(RpcException.notExecuted(
                RpcStatus.NETWORK, "readiness ping unanswered", null)));

        // a short timeout here: what is pinned is that the check ran it out, not how long it took
        String why = ReadyCheck.await(() -> List.of(a, b), monitor, TimeUnit.MILLISECONDS.toNanos(50));

        assertTrue(why.startsWith("none of 2 provider(s) became ready: "), why);
        assertTrue(why.contains("127.0.0.1:1002 (readiness ping unanswered)"), why);
    }

    /** A provider whose every connect attempt is {@link #attempt}. */
    private static final class Provider implements ProviderEndpoint {
        final String address;
        final CompletableFuture<Void> attempt;
        final AtomicInteger asked = new AtomicInteger();
        volatile boolean ready;

        Provider(String address, CompletableFuture<Void> attempt) {
            this.address = address;
            this.attempt = attempt;
        }

        @Override
        public CompletableFuture<Result> invoke(Invocation invocation) {
            throw new UnsupportedOperationException();
        }

        @Override
        public InetSocketAddress socketAddress() {
            String[] hostPort = address.split(":");
            return new InetSocketAddress(hostPort[0], Integer.parseInt(hostPort[1]));
        }

        @Override
        public String address() {
            return address;
        }

        @Override
        public int weight() {
            return 100;
        }

        @Override
        public boolean isReady() {
            return ready;
        }

        @Override
        public CompletableFuture<Void> whenReady() {
            asked.incrementAndGet();
            return attempt;
        }

        @Override
        public int openConnections() {
            return ready ? 1 : 0;
        }

        @Override
        public Set<Thread> ioThreads() {
            return Set.of();
        }

        @Override
        public int pendingCalls() {
            return 0;
        }

        @Override
        public void reconnectSoon(Duration spread) {
        }

        @Override
        public void close() {
        }
    }

    @Test
    void aRefusalIsToldFromATimeout() {
        assertTrue(ProviderEndpoint.isRefusal(refused("127.0.0.1:1")));
        assertEquals(false, ProviderEndpoint.isRefusal(new io.netty.channel.ConnectTimeoutException(
                "connection timed out: /127.0.0.1:1")));
        assertEquals(false, ProviderEndpoint.isRefusal(new ConnectException("No route to host")));
    }
}
