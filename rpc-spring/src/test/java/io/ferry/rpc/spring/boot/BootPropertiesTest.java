package io.ferry.rpc.spring.boot;

import io.ferry.rpc.config.Ferry;
import io.ferry.rpc.config.option.Options;
import io.ferry.rpc.option.Option;
import io.ferry.rpc.option.Scope;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;

import java.time.Duration;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code ferry.*} in a Boot application's files and environment variables reaches Ferry's options through Boot's
 * relaxed names, and a wrong key or value stops the start naming the key, where it was set and what was expected.
 */
class BootPropertiesTest {
    private static final String FILES = "classpath:io/ferry/rpc/spring/boot/";

    /** A Boot application whose environment variables are {@code variables} (Boot reads them as it reads real ones). */
    private static ConfigurableApplicationContext start(Map<String, Object> variables, String... properties) {
        SpringApplication app = new SpringApplication(BootApps.Empty.class);
        app.setWebApplicationType(WebApplicationType.NONE);
        app.setEnvironment(new StandardEnvironment() {
            @Override
            protected void customizePropertySources(org.springframework.core.env.MutablePropertySources sources) {
                sources.addLast(new SystemEnvironmentPropertySource(SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME,
                        variables));
            }
        });
        app.setDefaultProperties(Map.of("spring.main.banner-mode", "off",
                "spring.main.register-shutdown-hook", "false"));
        String[] args = new String[properties.length];
        for (int i = 0; i < properties.length; i++) {
            args[i] = "--" + properties[i];
        }
        return app.run(args);
    }

    @Test
    void kebabCamelAndDubboNamesInFilesAndEnvironmentVariablesReachFerrysOptions() {
        try (ConfigurableApplicationContext context = start(Map.of("FERRY_CONSUMER_TIMEOUT", "2500",
                        "FERRY_CONSUMER_CONNECTTIMEOUT", "1500ms"),
                "spring.config.location=" + FILES + "relaxed.properties," + FILES + "relaxed.yml")) {
            Ferry ferry = context.getBean(Ferry.class);
            assertEquals("relaxed", ferry.application().name());
            assertEquals("roundrobin", ferry.consumer().loadBalance(), "ferry.consumer.load-balance");
            assertEquals(Duration.ofMillis(2500), ferry.consumer().timeout(), "FERRY_CONSUMER_TIMEOUT");
            assertEquals(0, ferry.consumer().retries(), "relaxed.yml");
            assertEquals("-default", ferry.consumer().filterNames(), "a YAML list");
            assertEquals(Duration.ofMillis(1500), ferry.consumer().settings().get(Options.CONNECT_TIMEOUT));
            assertEquals(2, ferry.consumer().settings().get(Options.MAX_CONNECTIONS));
            assertEquals(3, ferry.protocol().settings().get(Options.IO_THREADS), "ferry.protocol.io-threads");
            assertEquals(Duration.ofSeconds(7), ferry.protocol().settings().get(Options.SHUTDOWN_TIMEOUT));
            assertEquals("relaxed.properties:3 (ferry.consumer.load-balance)",
                    ferry.consumer().settings().setting(Options.LOAD_BALANCE).where(),
                    "each value keeps the file and line it was set at");
            assertTrue(ferry.consumer().settings().setting(Options.TIMEOUT).where()
                    .contains("FERRY_CONSUMER_TIMEOUT"), ferry.consumer().settings().setting(Options.TIMEOUT)
                    .where());
        }
    }

    @Test
    void aHigherSourceWinsAsInBootAndCommandLineArgumentsAreASource() {
        try (ConfigurableApplicationContext context = start(Map.of("FERRY_CONSUMER_TIMEOUT", "2500"),
                "spring.config.location=" + FILES + "relaxed.properties", "ferry.consumer.timeout=3s",
                "ferry.consumer.loadbalance=random")) {
            Ferry ferry = context.getBean(Ferry.class);
            assertEquals(Duration.ofSeconds(3), ferry.consumer().timeout(), "the command line over the environment");
            assertEquals("random", ferry.consumer().loadBalance(), "the command line over the file");
        }
    }

    @Test
    void aMisspeltKeyStopsTheStartNamingItsFileLineAndTheNearestName() {
        RuntimeException e = assertThrows(RuntimeException.class, () -> start(Map.of(),
                "spring.config.location=" + FILES + "typo.properties").close());
        assertEquals("typo.properties:3: ferry.consumer.timout: no such option for a consumer (did you mean "
                + "ferry.consumer.timeout?)", rootMessage(e));
    }

    @Test
    void aWrongValueStopsTheStartNamingTheKeyItsOriginAndWhatWasExpected() {
        RuntimeException e = assertThrows(RuntimeException.class, () -> start(Map.of(),
                "spring.config.location=" + FILES + "bad-value.properties").close());
        assertEquals("bad-value.properties:2 (ferry.protocol.io-threads): ioThreads: 'many' (expected: a whole "
                + "number)", rootMessage(e));

        RuntimeException fromVariable = assertThrows(RuntimeException.class, () -> start(
                Map.of("FERRY_CONSUMER_TIMEOUT", "soon")).close());
        assertTrue(rootMessage(fromVariable).contains("FERRY_CONSUMER_TIMEOUT"), rootMessage(fromVariable));
        assertTrue(rootMessage(fromVariable).contains("timeout: 'soon' (expected: milliseconds"),
                rootMessage(fromVariable));
    }

    @Test
    void dubboKeysLeftUnrenamedAndDubbosRefusedKeysStopTheStartWithTheKeyToWriteOrTheReason() {
        RuntimeException e = assertThrows(RuntimeException.class, () -> start(Map.of("DUBBO_IP_TO_REGISTRY",
                "10.0.0.1"), "spring.config.location=" + FILES + "dubbo-leftovers.properties").close());
        String message = null;
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof IllegalArgumentException && message == null) {
                message = t.getMessage();
            }
        }
        assertEquals(String.join("\n",
                "dubbo-leftovers.properties:3: dubbo.consumer.timeout: a Dubbo key (expected: ferry.consumer.timeout, "
                        + "with the option names of Ferry's reference)",
                "dubbo-leftovers.properties:4: ferry.provider.delay=\"5000\": not supported by Ferry: a service is "
                        + "registered once export() has bound its port, and consumers call it only after a readiness "
                        + "ping; to export later, call Ferry.export then: leave it out (taken, with no effect: -1 or 0)",
                "dubbo-leftovers.properties:5: ferry.config-center.address: not supported by Ferry: no config center: "
                        + "use ferry.properties or -D",
                "dubbo-leftovers.properties:6: dubbo.protocols.dubbo.port: a Dubbo key (and as "
                        + "ferry.protocols.dubbo.port: not supported by Ferry: one protocol per application, set by "
                        + "ferry.protocol.* (expected: ferry.protocol.port))"), message,
                "Dubbo's environment variables (DUBBO_IP_TO_REGISTRY) are left alone");
    }

    @Test
    void aServicesWrongRefIsReportedWithTheOtherMistakesOfTheKeys() {
        RuntimeException e = assertThrows(RuntimeException.class, () -> start(Map.of(),
                "ferry.service." + Hello.class.getName() + ".ref=helloServise", "ferry.consumer.timout=5").close());
        String message = null;
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof IllegalArgumentException && message == null) {
                message = t.getMessage();
            }
        }
        assertTrue(message != null && message.lines().count() == 2 && message.contains("ferry.consumer.timout: no "
                + "such option for a consumer") && message.contains("ref helloServise: no such bean (expected: one "
                + "of the context's beans ["), message);
        assertTrue(!message.contains("ferryLifecycle") && !message.contains("RpcAnnotationProcessor")
                && !message.contains("-org.springframework"), "neither Ferry's beans nor Boot's: " + message);
    }

    @Test
    void aPlaceholderIsResolvedFromTheEnvironment() {
        try (ConfigurableApplicationContext context = start(Map.of(), "app.timeout=1234",
                "ferry.consumer.timeout=${app.timeout}")) {
            assertEquals(Duration.ofMillis(1234), context.getBean(Ferry.class).consumer().timeout());
        }
    }

    @Test
    void dubbosScanAndProtocolNameKeysAreTakenAsDubboMeansThem() throws Exception {
        try (ConfigurableApplicationContext context = start(Map.of(), "ferry.protocol.name=dubbo",
                "ferry.protocol.host=127.0.0.1", "ferry.protocol.port=0",
                "ferry.scan.base-packages=io.ferry.rpc.spring.boot.scanned")) {
            Ferry ferry = context.getBean(Ferry.class);
            Hello scanned = context.getBean(io.ferry.rpc.spring.boot.scanned.ScannedHello.class);
            assertEquals("Scanned bean", scanned.hello("bean"), "the scanned class is a bean");
            try (Ferry consumer = Ferry.builder().shutdownHook(false).build()) {
                Hello remote = consumer.reference(io.ferry.rpc.config.ReferenceConfig.builder(Hello.class)
                        .url("dubbo://127.0.0.1:" + ferry.port()).build());
                assertEquals("Scanned call", remote.hello("call"), "and it was exported");
            }
        }
        RuntimeException e = assertThrows(RuntimeException.class, () -> start(Map.of(),
                "spring.config.location=" + FILES + "relaxed.properties", "ferry.protocol.name=tri").close());
        assertEquals("\"ferry.protocol.name\" from property source \"commandLineArgs\": ferry.protocol.name: 'tri' "
                + "(expected: dubbo, the only protocol Ferry speaks)", rootMessage(e));
    }

    @Test
    void aReferenceDeclaredByKeysIsABeanOfItsInterfacesType() {
        try (Ferry provider = Ferry.builder().shutdownHook(false).protocol(io.ferry.rpc.config.ProtocolConfig
                .builder().host("127.0.0.1").port(0).build()).build()) {
            provider.export(new HelloService());
            try (ConfigurableApplicationContext context = start(Map.of(),
                    "ferry.reference.greeter.interface=" + Hello.class.getName(),
                    "ferry.reference.greeter.url=dubbo://127.0.0.1:" + provider.port(),
                    "ferry.reference.greeter.version=1.0", "ferry.reference.greeter.method.hello.timeout=4s")) {
                assertEquals("Hello keys", context.getBean(Hello.class).hello("keys"));
                assertEquals(Duration.ofSeconds(4), context.getBean(Ferry.class).settingsOf("greeter")
                        .get(Options.TIMEOUT, method(Hello.class, "hello")));
            }
        }
    }

    private static java.lang.reflect.Method method(Class<?> type, String name) {
        for (java.lang.reflect.Method m : type.getMethods()) {
            if (m.getName().equals(name)) {
                return m;
            }
        }
        throw new AssertionError(name);
    }

    @Test
    void everyOptionsBootNamesMapToItsNameInFerrysFiles() {
        for (Option<?> option : Options.all()) {
            for (Scope scope : option.scopes()) {
                for (String written : new String[] {option.fileName(), option.name(), kebab(option.name()),
                        kebab(option.fileName()), option.fileName().toUpperCase(java.util.Locale.ROOT)}) {
                    assertEquals(option.fileName(), FerryPropertyNames.option(scope, written),
                            scope + " " + written);
                }
            }
        }
    }

    @Test
    void serviceAndMethodKeysKeepTheirInterfaceAndMethodNames() {
        assertEquals("ferry.service.com.acme.Greeter.method.sayHello.timeout", FerryPropertyNames.ferryKey(
                org.springframework.boot.context.properties.source.ConfigurationPropertyName.adapt(
                        "ferry.service.com.acme.Greeter.method.sayHello.timeout", '.')));
        assertEquals("ferry.service.com.acme.Greeter.threadpool", FerryPropertyNames.ferryKey(
                org.springframework.boot.context.properties.source.ConfigurationPropertyName.of(
                        "ferry.service[com.acme.Greeter].thread-pool")));
        assertEquals("ferry.reference.greeter.loadbalance", FerryPropertyNames.ferryKey(
                org.springframework.boot.context.properties.source.ConfigurationPropertyName.of(
                        "ferry.reference.greeter.load-balance")));
    }

    /** Boot's canonical form of a name: {@code maxConnections} as {@code max-connections}. */
    static String kebab(String name) {
        return name.replaceAll("([a-z0-9])([A-Z])", "$1-$2").toLowerCase(java.util.Locale.ROOT);
    }

    private static String rootMessage(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null) {
            t = t.getCause();
        }
        assertNotNull(t.getMessage());
        return t.getMessage();
    }

}
