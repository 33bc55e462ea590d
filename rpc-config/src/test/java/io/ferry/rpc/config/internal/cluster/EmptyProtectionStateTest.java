package io.ferry.rpc.config.internal.cluster;

import io.ferry.rpc.Ticker;
import io.ferry.rpc.config.OutlierEjection;
import io.ferry.rpc.registry.ProviderInstance;
import io.ferry.rpc.testkit.StandardErrorLines;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Empty-list protection's and the unlisted grace's decisions, on stub endpoints whose readiness the test sets and a
 * ticker it moves: what is kept, when it lets go, and when it warns. The directory's own 100 ms check also runs on a
 * real timer; it decides from the same ticker and readiness, so it can only do early what the test's
 * {@code checkKept()} does.
 */
class EmptyProtectionStateTest {
    private static final String WARNING = "(empty-list protection)";
    private final AtomicLong now = new AtomicLong();
    private final Ticker ticker = now::get;
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();
    private final Map<Integer, StubProvider> stubs = new ConcurrentHashMap<>();
    private final AtomicInteger opened = new AtomicInteger();
    private static final Duration GRACE = Duration.ofSeconds(60);
    private static final String UNLISTED_WARNING = "(unlistedGrace;";
    private RegistryDirectory directory = directory(new ListProtection(true, GRACE));

    private RegistryDirectory directory(ListProtection protection) {
        return new RegistryDirectory("com.acme.Greeter",
                ProviderEndpoints.only((address, weight, spread) -> {
                    opened.incrementAndGet();
                    return stubs.computeIfAbsent(address.getPort(), port -> new StubProvider("127.0.0.1:" + port));
                }), Duration.ZERO, 15_000,
                OutlierEjection.defaults(), () -> "registry", new Clocks(ticker, Clock.systemUTC(), timer), protection);
    }

    @AfterEach
    void close() {
        directory.close();
        timer.shutdownNow();
    }

    private static ProviderInstance at(int port) {
        return new ProviderInstance("127.0.0.1", port, "com.acme.Greeter", "", "", Set.of("greet"), 100, false,
                "test");
    }

    private void advanceMillis(long millis) {
        now.addAndGet(TimeUnit.MILLISECONDS.toNanos(millis));
    }

    @Test
    void keepsTheReadyWarnsOnceAfterASecondAndLetsEachGoWhenItIsNoLongerReady() {
        try (StandardErrorLines log = new StandardErrorLines()) {
            directory.providersChanged(List.of(at(1), at(2), at(3)));
            stubs.get(3).ready = false; // reconnecting: no live connection
            directory.providersChanged(List.of());
            assertEquals(List.of(at(1), at(2)), directory.providers(), "the ready ones only");
            assertEquals(2, directory.kept());
            assertEquals(0, directory.listed());

            advanceMillis(RegistryDirectory.WARN_AFTER_MILLIS - 1);
            directory.checkKept();
            assertEquals(0, log.containing(WARNING).size(), "not before they stayed ready for a second");
            advanceMillis(1);
            directory.checkKept();
            assertEquals(1, log.containing(WARNING).size());
            assertEquals(1, log.containing("but 2 still have live connections").size());

            directory.providersChanged(List.of()); // said again: the same episode
            advanceMillis(5_000);
            directory.checkKept();
            assertEquals(1, log.containing(WARNING).size(), "once per episode");

            stubs.get(1).ready = false; // its connection failed
            directory.checkKept();
            assertEquals(List.of(at(2)), directory.providers());
            assertEquals(1, directory.kept());
            stubs.get(2).ready = false;
            directory.checkKept();
            assertEquals(List.of(), directory.providers(), "the last one gone: empty");
            assertEquals(0, directory.kept());

            directory.providersChanged(List.of()); // nothing left to keep
            assertEquals(List.of(), directory.providers());
            directory.providersChanged(List.of(at(4)));
            directory.providersChanged(List.of()); // a new episode
            advanceMillis(RegistryDirectory.WARN_AFTER_MILLIS);
            directory.checkKept();
            assertEquals(2, log.containing(WARNING).size(), "a new episode warns again");
        }
    }

    @Test
    void aProviderThatSaysReadonlySoonAfterTheEmptyListGoesWithoutAWarning() {
        try (StandardErrorLines log = new StandardErrorLines()) {
            directory.providersChanged(List.of(at(1)));
            directory.providersChanged(List.of()); // a graceful shutdown: unregistered first
            assertEquals(1, directory.kept());
            advanceMillis(150);
            stubs.get(1).ready = false; // then its readonly event
            directory.checkKept();
            advanceMillis(RegistryDirectory.WARN_AFTER_MILLIS);
            directory.checkKept();
            assertEquals(List.of(), directory.providers());
            assertEquals(0, directory.kept());
            assertEquals(0, log.containing(WARNING).size());
        }
    }

    @Test
    void aListedProviderEndsTheProtectionAndTheOneKeptStaysOnlyWhileUnlisted() {
        directory.providersChanged(List.of(at(1), at(2)));
        directory.providersChanged(List.of(at(2)));
        assertEquals(List.of(at(2), at(1)), directory.providers(), "1 still ready: kept while unlisted");
        assertEquals(1, directory.keptUnlisted());
        assertEquals(1, directory.listed());
        directory.providersChanged(List.of());
        assertEquals(2, directory.kept(), "both kept by empty-list protection");
        assertEquals(0, directory.keptUnlisted());
        assertEquals(0, directory.listed());
        directory.providersChanged(List.of(at(3)));
        assertEquals(List.of(at(3), at(2), at(1)), directory.providers(), "the registry's list, and the two still ready");
        assertEquals(0, directory.kept(), "empty-list protection ends");
        assertEquals(2, directory.keptUnlisted());
        advanceMillis(GRACE.toMillis());
        directory.checkKept();
        assertEquals(List.of(at(3)), directory.providers(), "1's grace ran from when it was first unlisted");
        assertEquals(0, directory.keptUnlisted());
    }

    @Test
    void aProviderDroppedWhileReadyKeepsItsCallsForItsGraceAndIsNamedOnce() {
        try (StandardErrorLines log = new StandardErrorLines()) {
            directory.providersChanged(List.of(at(1), at(2)));
            directory.providersChanged(List.of(at(2))); // 1's session expired; its connection lives
            assertEquals(List.of(at(2), at(1)), directory.providers());
            advanceMillis(RegistryDirectory.WARN_AFTER_MILLIS - 1);
            directory.checkKept();
            assertEquals(0, log.containing(UNLISTED_WARNING).size(), "not before it stayed ready for a second");
            advanceMillis(1);
            directory.checkKept();
            directory.providersChanged(List.of(at(2))); // the same list again: the same grace
            advanceMillis(30_000);
            directory.checkKept();
            assertEquals(1, log.containing(UNLISTED_WARNING).size(), "once");
            assertEquals(List.of(at(2), at(1)), directory.providers());
            advanceMillis(GRACE.toMillis() - 30_000 - RegistryDirectory.WARN_AFTER_MILLIS);
            directory.checkKept();
            assertEquals(List.of(at(2)), directory.providers(), "its grace is over: it goes");
            assertEquals(1, log.containing("still not listed by the registry after unlistedGrace").size());
            assertEquals(0, directory.keptUnlisted());
        }
    }

    @Test
    void aProviderListedAgainIsAnOrdinaryMemberOnTheSameEndpoint() {
        directory.providersChanged(List.of(at(1), at(2)));
        directory.providersChanged(List.of(at(2)));
        advanceMillis(10_000);
        directory.providersChanged(List.of(at(1), at(2))); // registered again
        assertEquals(0, directory.keptUnlisted());
        assertEquals(2, directory.listed());
        advanceMillis(GRACE.toMillis());
        directory.checkKept();
        assertEquals(List.of(at(1), at(2)), directory.providers(), "listed: no grace runs");
        assertEquals(2, opened.get(), "one endpoint per provider, kept throughout");
    }

    @Test
    void anUnlistedProviderThatSaysReadonlyGoesAtOnceAndSilently() {
        try (StandardErrorLines log = new StandardErrorLines()) {
            directory.providersChanged(List.of(at(1), at(2)));
            directory.providersChanged(List.of(at(2))); // a graceful shutdown: unregistered first
            advanceMillis(150);
            stubs.get(1).ready = false; // then its readonly event
            directory.checkKept();
            assertEquals(List.of(at(2)), directory.providers());
            advanceMillis(RegistryDirectory.WARN_AFTER_MILLIS);
            directory.checkKept();
            assertEquals(0, log.containing(UNLISTED_WARNING).size());
        }
    }

    @Test
    void aProviderNotReadyWhenDroppedGoesAtOnce() {
        directory.providersChanged(List.of(at(1), at(2)));
        stubs.get(1).ready = false;
        directory.providersChanged(List.of(at(2)));
        assertEquals(List.of(at(2)), directory.providers());
        assertEquals(0, directory.keptUnlisted());
    }

    @Test
    void withNoGraceAShrinkingListIsTakenAsIs() {
        directory.close();
        directory = directory(new ListProtection(true, Duration.ZERO));
        directory.providersChanged(List.of(at(1), at(2)));
        directory.providersChanged(List.of(at(2)));
        assertEquals(List.of(at(2)), directory.providers());
        assertEquals(0, directory.keptUnlisted());
        directory.providersChanged(List.of());
        assertEquals(List.of(at(2)), directory.providers(), "empty-list protection is a switch of its own");
        assertEquals(1, directory.kept());
    }

    @Test
    void withBothOffEveryListIsTakenAsDubboTakesIt() {
        directory.close();
        directory = directory(ListProtection.none());
        directory.providersChanged(List.of(at(1), at(2)));
        directory.providersChanged(List.of(at(2)));
        directory.providersChanged(List.of());
        assertEquals(List.of(), directory.providers());
        assertEquals(0, directory.kept());
        assertEquals(0, directory.keptUnlisted());
    }
}
