package io.ferry.rpc.config;

import io.ferry.rpc.config.fixtures.Named;
import io.ferry.rpc.config.fixtures.WhoAmI;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What a new user meets first: keeping a provider up, and start-up errors that say what to change. */
class StartupTest {
    private static Ferry provider(String host, int port) {
        return Ferry.builder().protocol(ProtocolConfig.builder().host(host).port(port).build()).shutdownHook(false)
                .build();
    }

    @Test
    void aSecondProviderOnABusyPortIsToldWhichPort() {
        try (Ferry first = provider("127.0.0.1", 0); Ferry second = provider("127.0.0.1", portOf(first))) {
            int port = first.port();
            IllegalStateException e = assertThrows(IllegalStateException.class,
                    () -> second.export(ServiceConfig.builder(WhoAmI.class, new Named("b")).build()));
            assertTrue(e.getMessage().startsWith("port: " + port + " is already in use on 127.0.0.1"),
                    e.getMessage());
        }
    }

    private static int portOf(Ferry ferry) {
        return ferry.export(ServiceConfig.builder(WhoAmI.class, new Named("a")).build());
    }

    @Test
    void aHostThatDoesNotResolveIsNamed() {
        try (Ferry ferry = provider("no-such-host.invalid", 0)) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> ferry.export(ServiceConfig.builder(WhoAmI.class, new Named("a")).build()));
            assertTrue(e.getMessage().startsWith("host: 'no-such-host.invalid'"), e.getMessage());
        }
    }

    @Test
    void awaitTerminationReturnsWhenTheBootstrapIsClosed() throws Exception {
        Ferry ferry = provider("127.0.0.1", 0);
        portOf(ferry);
        assertFalse(ferry.awaitTermination(Duration.ofMillis(50)), "still serving");
        CompletableFuture<Void> waiter = CompletableFuture.runAsync(() -> {
            try {
                ferry.awaitTermination();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        assertFalse(waiter.isDone());
        ferry.close();
        waiter.get(10, TimeUnit.SECONDS);
        assertTrue(ferry.awaitTermination(Duration.ZERO));
    }
}
