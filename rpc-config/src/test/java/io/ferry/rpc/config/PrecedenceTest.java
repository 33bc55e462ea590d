package io.ferry.rpc.config;

import io.ferry.rpc.RpcContext;
import io.ferry.rpc.RpcException;
import io.ferry.rpc.RpcStatus;
import io.ferry.rpc.config.annotated.Inventory;
import io.ferry.rpc.config.fixtures.UserService;
import io.ferry.rpc.config.fixtures.UserServiceImpl;
import io.ferry.rpc.config.internal.files.Sources;
import io.ferry.rpc.config.option.Options;
import io.ferry.rpc.config.option.Resolved;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Which value wins. Within a source: the method's, then the reference's or service's, then the consumer's or
 * provider's, then the built-in default. Across sources, scope by scope: {@code -D}, then code (builders,
 * annotations, files given to the bootstrap), then a {@code ferry.properties} on the class path. A per-call
 * timeout beats them all for its call.
 */
class PrecedenceTest {
    private static final Method HELLO = method(UserService.class, "hello", String.class);
    private static final Method ADD = method(UserService.class, "add", int.class, int.class);

    @TempDir
    Path dir;

    private static Method method(Class<?> type, String name, Class<?>... parameters) {
        try {
            return type.getMethod(name, parameters);
        } catch (NoSuchMethodException e) {
            throw new AssertionError(e);
        }
    }

    private static Ferry bootstrap(ConsumerConfig consumer, Sources sources) {
        return Ferry.builder().shutdownHook(false).consumer(consumer).sources(sources).build();
    }

    /** A class path holding only a ferry.properties with {@code lines}. */
    private URLClassLoader classPath(String... lines) throws Exception {
        Path root = Files.createDirectories(dir.resolve("classes"));
        Files.writeString(root.resolve("ferry.properties"), String.join("\n", lines));
        return new URLClassLoader(new URL[] {root.toUri().toURL()}, null);
    }

    @Test
    void theNarrowestScopeThatSetsAnOptionWins() {
        ConsumerConfig consumer = ConsumerConfig.builder().timeout(Duration.ofSeconds(3)).build();
        try (Ferry ferry = bootstrap(consumer, Sources.none())) {
            Resolved users = ferry.settingsOf(ReferenceConfig.builder(UserService.class)
                    .timeout(Duration.ofSeconds(2)).method(MethodConfig.timeout("hello", Duration.ofSeconds(1)))
                    .build());
            assertEquals(Duration.ofSeconds(1), users.get(Options.TIMEOUT, HELLO), "the method's");
            assertEquals(Duration.ofSeconds(2), users.get(Options.TIMEOUT, ADD), "the reference's");
            Resolved plain = ferry.settingsOf(ReferenceConfig.builder(UserService.class).build());
            assertEquals(Duration.ofSeconds(3), plain.get(Options.TIMEOUT, ADD), "the consumer's");
            assertEquals(2, plain.get(Options.RETRIES, ADD), "the built-in default");
            assertEquals("built-in default", plain.setting(Options.RETRIES, ADD).where());
        }
    }

    @Test
    void anAnnotatedMethodBeatsItsReferenceAndAMethodConfigBeatsTheAnnotation() {
        Method slowStock = method(Inventory.class, "slowStock", String.class);
        try (Ferry ferry = bootstrap(ConsumerConfig.defaults(), Sources.none())) {
            Resolved annotated = ferry.settingsOf(ReferenceConfig.builder(Inventory.class)
                    .timeout(Duration.ofSeconds(2)).build());
            assertEquals(Duration.ofMillis(100), annotated.get(Options.TIMEOUT, slowStock), "@RpcMethod");
            Resolved configured = ferry.settingsOf(ReferenceConfig.builder(Inventory.class)
                    .method(MethodConfig.timeout("slowStock", Duration.ofMillis(700))).build());
            assertEquals(Duration.ofMillis(700), configured.get(Options.TIMEOUT, slowStock), "MethodConfig");
            assertEquals(Duration.ofSeconds(3), configured.get(Options.TIMEOUT,
                    method(Inventory.class, "stock", String.class)), "@RpcService over the consumer's default");
        }
    }

    @Test
    void systemPropertiesBeatCodeWhichBeatsTheClassPathsFile() throws Exception {
        try (URLClassLoader loader = classPath("ferry.consumer.timeout = 5000", "ferry.consumer.retries = 4",
                "ferry.consumer.forks = 5", "ferry.reference.users.cluster = failfast");
             Ferry ferry = bootstrap(ConsumerConfig.builder().timeout(Duration.ofSeconds(2)).retries(3).build(),
                     Sources.of(Map.of("ferry.consumer.retries", "1", "ferry.reference.users.timeout", "900"),
                             loader))) {
            assertEquals(Duration.ofSeconds(2), ferry.consumer().timeout(), "code over ferry.properties");
            assertEquals(1, ferry.consumer().retries(), "-D over code");
            assertEquals(5, ferry.consumer().forks(), "ferry.properties fills what code leaves unset");
            Resolved users = ferry.settingsOf(ReferenceConfig.builder(UserService.class).id("users")
                    .timeout(Duration.ofSeconds(7)).build());
            assertEquals(Duration.ofMillis(900), users.get(Options.TIMEOUT, ADD), "-D over the reference's code");
            assertEquals("-Dferry.reference.users.timeout", users.setting(Options.TIMEOUT, ADD).where());
            assertEquals("failfast", users.get(Options.CLUSTER), "by id, from ferry.properties");
            Resolved anonymous = ferry.settingsOf(ReferenceConfig.builder(UserService.class).build());
            assertEquals("failover", anonymous.get(Options.CLUSTER), "a reference without an id: none");
        }
    }

    @Test
    void scopesAreComparedAfterSourcesAreMerged() throws Exception {
        // -D at the consumer scope does not beat a reference's own value, from whatever source it comes
        try (URLClassLoader loader = classPath("ferry.reference.users.retries = 3");
             Ferry ferry = bootstrap(ConsumerConfig.defaults(), Sources.of(Map.of("ferry.consumer.retries", "0"),
                     loader))) {
            Resolved users = ferry.settingsOf(ReferenceConfig.builder(UserService.class).id("users").build());
            assertEquals(3, users.get(Options.RETRIES, ADD));
            users = ferry.settingsOf(ReferenceConfig.builder(UserService.class).id("users")
                    .method(MethodConfig.builder("add").retries(1).build()).build());
            assertEquals(1, users.get(Options.RETRIES, ADD), "the method's own, set in code");
            assertEquals(3, users.get(Options.RETRIES, HELLO));
        }
    }

    @Test
    void providerDefaultsFillWhatTheProtocolAndServicesLeaveUnset() {
        Sources system = Sources.of(Map.of("ferry.provider.threads", "50", "ferry.provider.timeout", "700",
                "ferry.provider.iothreads", "3"), null);
        try (Ferry ferry = Ferry.builder().shutdownHook(false).sources(system)
                .protocol(ProtocolConfig.builder().threads(8).build()).build()) {
            assertEquals(8, ferry.protocol().serverOptions().threads(), "the protocol's own, though set in code");
            assertEquals(3, ferry.protocol().serverOptions().ioThreads(), "the provider's where the protocol is silent");
            Resolved users = ferry.settingsOf(ServiceConfig.builder(UserService.class, new UserServiceImpl()).build());
            assertEquals(Duration.ofMillis(700), users.get(Options.TIMEOUT, HELLO));
            Resolved own = ferry.settingsOf(ServiceConfig.builder(UserService.class, new UserServiceImpl())
                    .timeout(Duration.ofMillis(300)).build());
            assertEquals(Duration.ofMillis(300), own.get(Options.TIMEOUT, HELLO));
        }
    }

    @Test
    void aPerCallTimeoutBeatsEverySource() {
        UserServiceImpl impl = new UserServiceImpl();
        try (Ferry provider = Ferry.builder().shutdownHook(false).sources(Sources.none())
                .protocol(ProtocolConfig.builder().host("127.0.0.1").port(0).build()).build()) {
            int port = provider.export(ServiceConfig.builder(UserService.class, impl).build());
            Sources system = Sources.of(Map.of("ferry.reference.users.method.block.timeout", "20000"), null);
            try (Ferry consumer = bootstrap(ConsumerConfig.defaults(), system)) {
                UserService users = consumer.reference(ReferenceConfig.builder(UserService.class).id("users")
                        .url("dubbo://127.0.0.1:" + port).build());
                RpcContext.current().setTimeout(Duration.ofMillis(200));
                RpcException e = assertThrows(RpcException.class, () -> users.block("per-call"));
                assertEquals(RpcStatus.TIMEOUT, e.status());
                assertTrue(e.getMessage().contains("200 ms"), e.getMessage());
            } finally {
                impl.release.countDown();
            }
        }
    }

    @Test
    void wrongSystemPropertiesFailTheBootstrapNamingThem() {
        assertEquals("-Dferry.consumer.timout: no such option for a consumer (did you mean ferry.consumer.timeout?)",
                assertThrows(IllegalArgumentException.class, () -> Sources.of(Map.of("ferry.consumer.timout", "1"),
                        null)).getMessage());
        assertEquals("-Dferry.consumr.timeout: unknown key (did you mean ferry.consumer.timeout?)",
                assertThrows(IllegalArgumentException.class, () -> Sources.of(Map.of("ferry.consumr.timeout", "5"),
                        null)).getMessage());
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Sources.of(Map.of(
                "ferry.reference.greeter.interface", "java.lang.Runnable"), null)).getMessage()
                .startsWith("-Dferry.reference.greeter.interface: interface (expected: set it where the reference is "
                        + "declared"));
        Sources stray = Sources.of(Map.of("ferry.registry.session", "5000"), null);
        String message = assertThrows(IllegalArgumentException.class, () -> Ferry.builder().shutdownHook(false)
                .sources(stray).registry(RegistryConfig.of("zookeeper://127.0.0.1:1")).build()).getMessage();
        assertTrue(message.startsWith("-Dferry.registry.session: a registry option without ferry.registry.address"),
                message);
    }
}
