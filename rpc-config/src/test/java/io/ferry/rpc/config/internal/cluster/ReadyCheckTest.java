package io.ferry.rpc.config.internal.cluster;

import io.ferry.rpc.RpcException;
import io.ferry.rpc.RpcStatus;
import io.ferry.rpc.Ticker;
import io.ferry.rpc.remoting.ProviderEndpoint;
import org.junit.jupiter.api.Test;

import java.net.ConnectException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Dubbo's check over providers whose connects the test decides: ready, refused, or still under way; its timeout on
 * a fake ticker, which only the test moves.
 */
class ReadyCheckTest {
    /** The check's timeout: an hour, so that a check that ends at all did not wait it out. */
    private static final long AN_HOUR = TimeUnit.HOURS.toNanos(1);

    private final Object monitor = new Object();
    private final AtomicLong now = new AtomicLong(42);
    private final Ticker ticker = now::get;

    private static RpcException refused(String address) {
        return RpcException.notExecuted(RpcStatus.NETWORK, "cannot connect to /" + address
                + ": connection refused (nothing listens there)", new ConnectException("Connection refused"));
    }

    @Test
    void whenEveryProviderRefusesTheCheckEndsAtOnceNamingThem() throws Exception {
        Provider a = new Provider("127.0.0.1:1001", CompletableFuture.failedFuture(refused("127.0.0.1:1001")));
        Provider b = new Provider("127.0.0.1:1002", CompletableFuture.failedFuture(refused("127.0.0.1:1002")));

        String why = ReadyCheck.await(() -> List.of(a, b), monitor, AN_HOUR, ticker);

        assertTrue(why.startsWith("refused at once by every provider: 127.0.0.1:1001 (cannot connect to"), why);
        assertTrue(why.contains("127.0.0.1:1002 (cannot connect to /127.0.0.1:1002: connection refused"), why);
    }

    @Test
    void oneProviderRefusingDoesNotFailTheCheckWhileAnotherIsStillConnecting() throws Exception {
        Provider a = new Provider("127.0.0.1:1001", CompletableFuture.failedFuture(refused("127.0.0.1:1001")));
        Provider b = new Provider("127.0.0.1:1002", new CompletableFuture<>());
        CompletableFuture<String> check = CompletableFuture.supplyAsync(() -> {
            try {
                return ReadyCheck.await(() -> List.of(a, b), monitor, AN_HOUR, ticker);
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
        CompletableFuture<String> check = CompletableFuture.supplyAsync(() -> {
            try {
                return ReadyCheck.await(() -> List.of(a, b), monitor, AN_HOUR, ticker);
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        // the check holds the monitor from its first look until it waits: holding it here means it waits
        await("the check watches b's connect").atMost(Duration.ofSeconds(30)).until(() -> b.asked.get() > 0);
        int asked = b.asked.get();
        providersChanged();
        await("the check looks again").atMost(Duration.ofSeconds(30)).until(() -> b.asked.get() > asked);
        assertFalse(check.isDone(), "woken with its hour not yet passed on the ticker: it waits on");

        now.addAndGet(AN_HOUR);
        providersChanged();
        String why = check.get(1, TimeUnit.MINUTES);

        assertTrue(why.startsWith("none of 2 provider(s) became ready: "), why);
        assertTrue(why.contains("127.0.0.1:1002 (readiness ping unanswered)"), why);
    }

    /** What a directory does when the registry announces providers: wakes the check to look again. */
    private void providersChanged() {
        synchronized (monitor) {
            monitor.notifyAll();
        }
    }

    /** A provider whose every connect attempt is {@link #attempt}; not ready until a test says so. */
    private static final class Provider extends StubProvider {
        final CompletableFuture<Void> attempt;
        final AtomicInteger asked = new AtomicInteger();

        Provider(String address, CompletableFuture<Void> attempt) {
            super(address);
            this.attempt = attempt;
            this.ready = false;
        }

        @Override
        public CompletableFuture<Void> whenReady() {
            asked.incrementAndGet();
            return attempt;
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
