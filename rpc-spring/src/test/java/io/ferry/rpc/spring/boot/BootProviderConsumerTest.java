package io.ferry.rpc.spring.boot;

import io.ferry.rpc.config.Ferry;
import io.ferry.rpc.config.fixtures.ZooKeeperFixture;
import io.ferry.rpc.spring.FerryLifecycle;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.context.ConfigurableApplicationContext;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A provider and a consumer as real Boot applications in one JVM, over a real ZooKeeper and real sockets on
 * 127.0.0.1: an {@code @RpcExport} bean behind an AOP proxy is exported, {@code @RpcReference} constructor
 * parameters and fields are injected, the {@code ferry} health indicator and Boot's meter registry see the calls,
 * and closing the provider unregisters it, drains a call in flight and closes.
 */
class BootProviderConsumerTest {
    @RegisterExtension
    final ZooKeeperFixture zk = new ZooKeeperFixture();

    private String[] properties(String application, String... more) {
        List<String> all = new ArrayList<>(List.of("ferry.application.name=" + application,
                "ferry.registry.address=zookeeper://127.0.0.1:" + zk.server().port(), "ferry.registry.file=none",
                "ferry.protocol.host=127.0.0.1", "ferry.protocol.port=0"));
        all.addAll(List.of(more));
        return all.toArray(String[]::new);
    }

    @Test
    void annotatedBeansServeRealCallsSeenByHealthAndMeters() throws Exception {
        try (ConfigurableApplicationContext provider = BootApps.start(BootApps.Provider.class,
                properties("boot-provider"))) {
            assertEquals(1, zk.registeredProviders(Hello.class).size(), "exported once the application started");
            try (ConfigurableApplicationContext consumer = BootApps.start(BootApps.Consumer.class,
                    properties("boot-consumer"))) {
                HelloClient client = consumer.getBean(HelloClient.class);
                assertSame(client.byConstructor, client.byField, "one reference per interface and annotation");
                assertEquals("Hello boot", client.byConstructor.hello("boot"));
                assertEquals("Hello field", client.byField.hello("field"));
                assertEquals(2, provider.getBean(BootApps.Provider.class).advised.get(),
                        "the AOP proxy, not its target, was exported");

                Health consumerHealth = health(consumer);
                assertEquals(Status.UP, consumerHealth.getStatus(), consumerHealth.toString());
                assertEquals("CONNECTED", consumerHealth.getDetails().get("registry"));
                assertEquals(List.of(Map.of("interface", Hello.class.getName(), "version", "1.0", "check", true,
                        "providers", 1, "ready", 1)), consumerHealth.getDetails().get("references"));
                Health providerHealth = health(provider);
                assertEquals(Status.UP, providerHealth.getStatus());
                assertEquals(List.of(Map.of("interface", Hello.class.getName(), "version", "1.0",
                        "registered", true)), providerHealth.getDetails().get("services"));

                assertEquals(2, calls(provider, "rpc.server.duration"), "the provider's timers in Boot's registry");
                assertEquals(2, calls(consumer, "rpc.client.duration"), "the consumer's timers in Boot's registry");
                assertNull(consumer.getBean(MeterRegistry.class).find("rpc.client.duration.active").meter(),
                        "timed by Ferry's meter handler, ahead of Boot's default one (which adds .active)");
            }
        }
    }

    @Test
    void anApplicationThatExportsAServiceAndReferencesItWithCheckStartsAndCallsIt() throws Exception {
        try (ConfigurableApplicationContext app = BootApps.start(BootApps.SelfReferencing.class,
                properties("boot-self", "ferry.consumer.check=true"))) {
            HelloClient client = app.getBean(HelloClient.class);
            assertEquals("Hello self", client.byConstructor.hello("self"), "the constructor parameter's reference");
            assertEquals("Hello field", client.byField.hello("field"), "the field's reference");
            assertEquals(1, zk.registeredProviders(Hello.class).size());
        }
    }

    @Test
    void closingTheProviderUnregistersDrainsTheCallInFlightThenCloses() throws Exception {
        ConfigurableApplicationContext provider = BootApps.start(BootApps.Provider.class,
                properties("boot-provider", "ferry.protocol.shutdown-timeout=30s",
                        "ferry.protocol.shutdown-grace=0"));
        HelloService service = provider.getBean(BootApps.Provider.class).service;
        try (ConfigurableApplicationContext consumer = BootApps.start(BootApps.Consumer.class,
                properties("boot-consumer"))) {
            Hello hello = consumer.getBean(HelloClient.class).byField;
            CompletableFuture<String> inFlight = CompletableFuture.supplyAsync(() -> hello.slow("drain"));
            assertTrue(service.slowEntered.await(20, TimeUnit.SECONDS), "the call reached the provider");

            Thread closing = new Thread(provider::close, "closing-provider");
            closing.start();
            await().atMost(Duration.ofSeconds(20)).until(() -> zk.registeredProviders(Hello.class).isEmpty());
            assertFalse(inFlight.isDone(), "unregistered first, with the call still running");
            assertTrue(closing.isAlive(), "the close waits for the call in flight");

            service.release.countDown();
            assertEquals("Slowly, drain", inFlight.get(20, TimeUnit.SECONDS), "the call in flight was answered");
            closing.join(TimeUnit.SECONDS.toMillis(20));
            assertFalse(closing.isAlive(), "then the provider closed");
            assertFalse(provider.isActive());

            await().atMost(Duration.ofSeconds(20)).until(() -> health(consumer).getStatus().equals(Status.DOWN));
            assertEquals(Hello.class.getName() + " has no ready provider",
                    health(consumer).getDetails().get("reason"));
        } finally {
            service.release.countDown();
            provider.close();
        }
    }

    @Test
    void closingTheConsumerLetsTheApplicationsWorkInFlightFinishItsCallsBeforeTheReferencesClose() throws Exception {
        try (ConfigurableApplicationContext provider = BootApps.start(BootApps.Provider.class,
                properties("boot-provider"))) {
            HelloService service = provider.getBean(BootApps.Provider.class).service;
            ConfigurableApplicationContext consumer = BootApps.start(BootApps.ConsumerWithWork.class,
                    properties("boot-consumer"));
            try {
                Hello hello = consumer.getBean(HelloClient.class).byField;
                CompletableFuture<String> request = CompletableFuture.supplyAsync(() -> hello.slow("request"));
                assertTrue(service.slowEntered.await(20, TimeUnit.SECONDS), "the call reached the provider");
                BootApps.InFlightWork work = consumer.getBean(BootApps.ConsumerWithWork.class).work;
                work.work = request;
                FerryLifecycle lifecycle = consumer.getBean(FerryLifecycle.class);
                Ferry ferry = consumer.getBean(Ferry.class);
                AtomicBoolean ferryOpenWhileDraining = new AtomicBoolean();
                work.onStop = () -> {
                    // the application drains its own work (as Tomcat its requests) while Ferry still runs
                    ferryOpenWhileDraining.set(lifecycle.isRunning() && !ferry.status().closing());
                    // the provider answers once Ferry has closed, or after a second: a Ferry closing beside the
                    // drain (in the same phase) would have failed the call by then
                    new Thread(() -> {
                        try {
                            ferry.awaitTermination(Duration.ofSeconds(1));
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        }
                        service.release.countDown();
                    }, "answer-later").start();
                };

                consumer.close();
                assertTrue(ferryOpenWhileDraining.get(), "Ferry stops after the application's graceful drain");
                assertEquals("Slowly, request", request.get(20, TimeUnit.SECONDS),
                        "the work's call was answered: the references closed after it");
            } finally {
                service.release.countDown();
                consumer.close();
            }
        }
    }

    private static Health health(ConfigurableApplicationContext context) {
        return context.getBean("ferryHealthIndicator", HealthIndicator.class).health();
    }

    private static long calls(ConfigurableApplicationContext context, String timer) {
        return context.getBean(MeterRegistry.class).find(timer).timers().stream().mapToLong(Timer::count).sum();
    }
}
