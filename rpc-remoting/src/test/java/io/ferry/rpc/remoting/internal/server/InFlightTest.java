package io.ferry.rpc.remoting.internal.server;

import io.ferry.rpc.Ticker;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/** The shutdown's wait for requests in flight, its deadline on a fake ticker: nothing here waits it out. */
class InFlightTest {
    private static final Duration AN_HOUR = Duration.ofHours(1);

    private final AtomicLong now = new AtomicLong(123_456_789);
    private final AtomicInteger readings = new AtomicInteger();
    private final Ticker ticker = () -> {
        readings.incrementAndGet();
        return now.get();
    };

    @Test
    void withNoneInFlightTheWaitEndsAtOnce() throws Exception {
        assertEquals(0, new InFlight(ticker).awaitNone(AN_HOUR));
    }

    @Test
    void aTimeoutThatHasPassedOnTheTickerEndsTheWaitWithTheCountLeft() throws Exception {
        // every reading an hour after the last: the deadline has passed by the first look
        InFlight inFlight = new InFlight(() -> now.addAndGet(AN_HOUR.toNanos()));
        inFlight.tryBegin();
        inFlight.tryBegin();

        assertEquals(2, inFlight.awaitNone(AN_HOUR));
    }

    @Test
    void theLastRequestEndingEndsTheWait() throws Exception {
        InFlight inFlight = new InFlight(ticker);
        inFlight.tryBegin();
        CompletableFuture<Integer> left = waitFor(inFlight);

        inFlight.end();

        assertEquals(0, left.get(30, TimeUnit.SECONDS));
    }

    @Test
    void whateverWakesTheWaitTheTickerDecidesWhetherItsTimeIsUp() throws Exception {
        InFlight inFlight = new InFlight(ticker);
        inFlight.tryBegin();
        CompletableFuture<Integer> left = waitFor(inFlight);
        // two readings (the deadline, then the time left) and the waiter holds the monitor until it waits
        await().atMost(Duration.ofSeconds(30)).until(() -> readings.get() >= 2);

        wake(inFlight);
        await().atMost(Duration.ofSeconds(30)).until(() -> readings.get() >= 3);
        assertFalse(left.isDone(), "woken early: waits on for what is left of its hour");

        now.addAndGet(AN_HOUR.toNanos());
        wake(inFlight);
        assertEquals(1, left.get(30, TimeUnit.SECONDS), "the hour has passed on the ticker");
    }

    private static CompletableFuture<Integer> waitFor(InFlight inFlight) {
        return CompletableFuture.supplyAsync(() -> {
            try {
                return inFlight.awaitNone(AN_HOUR);
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
    }

    /** A spurious wake-up, as a waiting thread may see at any time. */
    private static void wake(InFlight inFlight) {
        synchronized (inFlight) {
            inFlight.notifyAll();
        }
    }
}
