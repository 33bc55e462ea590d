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
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Empty-list protection's decisions, on stub endpoints whose readiness the test sets and a ticker it moves: what is
 * kept, when it lets go, and when it warns. The directory's own 100 ms check also runs on a real timer; it decides
 * from the same ticker and readiness, so it can only do early what the test's {@code checkHeld()} does.
 */
class EmptyProtectionStateTest {
    private static final String WARNING = "(empty-list protection)";
    private final AtomicLong now = new AtomicLong();
    private final Ticker ticker = now::get;
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();
    private final Map<Integer, StubProvider> stubs = new ConcurrentHashMap<>();
    private final RegistryDirectory directory = new RegistryDirectory("com.acme.Greeter",
            ProviderEndpoints.only((address, weight, spread) -> stubs.computeIfAbsent(address.getPort(),
                    port -> new StubProvider("127.0.0.1:" + port))), Duration.ZERO, 15_000,
            OutlierEjection.defaults(), () -> "registry", new Clocks(ticker, Clock.systemUTC(), timer), true);

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
            directory.checkHeld();
            assertEquals(0, log.containing(WARNING).size(), "not before they stayed ready for a second");
            advanceMillis(1);
            directory.checkHeld();
            assertEquals(1, log.containing(WARNING).size());
            assertEquals(1, log.containing("but 2 still have live connections").size());

            directory.providersChanged(List.of()); // said again: the same episode
            advanceMillis(5_000);
            directory.checkHeld();
            assertEquals(1, log.containing(WARNING).size(), "once per episode");

            stubs.get(1).ready = false; // its connection failed
            directory.checkHeld();
            assertEquals(List.of(at(2)), directory.providers());
            assertEquals(1, directory.kept());
            stubs.get(2).ready = false;
            directory.checkHeld();
            assertEquals(List.of(), directory.providers(), "the last one gone: empty");
            assertEquals(0, directory.kept());

            directory.providersChanged(List.of()); // nothing left to keep
            assertEquals(List.of(), directory.providers());
            directory.providersChanged(List.of(at(4)));
            directory.providersChanged(List.of()); // a new episode
            advanceMillis(RegistryDirectory.WARN_AFTER_MILLIS);
            directory.checkHeld();
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
            directory.checkHeld();
            advanceMillis(RegistryDirectory.WARN_AFTER_MILLIS);
            directory.checkHeld();
            assertEquals(List.of(), directory.providers());
            assertEquals(0, directory.kept());
            assertEquals(0, log.containing(WARNING).size());
        }
    }

    @Test
    void aListedProviderEndsTheProtectionAndASubsetIsTakenAsIs() {
        directory.providersChanged(List.of(at(1), at(2)));
        directory.providersChanged(List.of(at(2)));
        assertEquals(List.of(at(2)), directory.providers(), "a shrinking list is taken as is");
        directory.providersChanged(List.of());
        assertEquals(1, directory.kept());
        directory.providersChanged(List.of(at(3)));
        assertEquals(List.of(at(3)), directory.providers(), "the registry's list again; 2, kept, goes");
        assertEquals(0, directory.kept());
        assertEquals(1, directory.listed());
    }
}
