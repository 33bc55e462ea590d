package io.ferry.rpc.config.option;

import io.ferry.rpc.option.Scope;
import io.ferry.rpc.option.Option;
import io.ferry.rpc.config.fixtures.GeneratedSection;
import org.junit.jupiter.api.Test;

import java.util.List;

import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The README's option reference is the option table's, and the table's declarations hold together. */
class OptionReferenceTest {
    private static final Path README = Path.of("..", "README.md");

    @Test
    void theReadmeShowsEveryOptionAsDeclared() throws Exception {
        GeneratedSection.check(README, "options", Options.markdownTable(), "ferry.updateReadme");
    }

    @Test
    void namesAreUniqueWithinAScopeAndEveryOptionIsDocumented() {
        Set<String> seen = new HashSet<>();
        for (Option<?> option : Options.all()) {
            for (Scope scope : option.scopes()) {
                assertTrue(seen.add(scope.key() + "." + option.name()), "declared twice: " + scope.key() + "."
                        + option.name());
                assertTrue(seen.add(scope.key() + ".file." + option.fileName().toLowerCase(java.util.Locale.ROOT)),
                        "named twice in files: " + scope.key() + "." + option.fileName());
            }
            assertTrue(!option.doc().isBlank(), option.name() + " has no documentation");
        }
    }

    @Test
    void aValueOutsideItsRangeIsRefusedNamingWhereItCameFrom() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Options.TIMEOUT.check(Duration.ofMillis(-5), "ferry.xml:12: <reference id=\"greeter\">"));
        assertEquals("ferry.xml:12: <reference id=\"greeter\">: timeout: -5ms (expected: > 0)", e.getMessage());
        assertEquals("connections: 2000 (expected: 0..1024)", assertThrows(IllegalArgumentException.class,
                () -> Options.CONNECTIONS.check(2000, "")).getMessage());
        assertEquals(Duration.ofNanos(1), Options.TIMEOUT.check(Duration.ofNanos(1), ""), "any positive duration");
    }

    @Test
    void textIsReadInDubbosUnitsAndNamesAndCheckedTheSameWay() {
        assertEquals(Duration.ofMillis(1500), Options.TIMEOUT.parse("1500", "ferry.properties:3"));
        assertEquals(Duration.ofMillis(500), Options.TIMEOUT.parse(" 500ms ", ""));
        assertEquals(Duration.ofSeconds(2), Options.TIMEOUT.parse("2s", ""));
        assertEquals(Duration.ofMinutes(1), Options.TIMEOUT.parse("1m", ""));
        assertEquals("roundrobin", Options.LOAD_BALANCE.parse("RoundRobin", ""), "names are kept in lower case");
        assertEquals(Boolean.FALSE, Options.CHECK.parse("false", ""));
        assertEquals(8, Options.THREADS.parse("8", ""));

        assertEquals("ferry.properties:3: timeout: -5ms (expected: > 0)", assertThrows(
                IllegalArgumentException.class, () -> Options.TIMEOUT.parse("-5", "ferry.properties:3")).getMessage());
        assertEquals("x: timeout: 'soon' (expected: milliseconds, or a number with ms, s, m or h)", assertThrows(
                IllegalArgumentException.class, () -> Options.TIMEOUT.parse("soon", "x")).getMessage());
        assertEquals("x: check: 'yes' (expected: true or false)", assertThrows(IllegalArgumentException.class,
                () -> Options.CHECK.parse("yes", "x")).getMessage());
        assertEquals("x: threads: 'many' (expected: a whole number)", assertThrows(IllegalArgumentException.class,
                () -> Options.THREADS.parse("many", "x")).getMessage());
        assertEquals("x: port: '' (expected: a value)", assertThrows(IllegalArgumentException.class,
                () -> Options.PORT.parse("  ", "x")).getMessage());
    }

    /**
     * A default is read from its declaration ({@code "0 (no limit)"} reads as 0): every option's default is a value
     * but those the table says are computed where they are used, or none. A reworded default that no longer reads
     * as a value fails here, not as a null at run time.
     */
    @Test
    void everyDefaultIsAValueButTheComputedOnesAndNone() {
        List<String> notValues = Options.all().stream().filter(o -> o.defaultValue() == null)
                .map(o -> o.name() + ": " + o.defaultText()).toList();
        assertEquals(List.of("filter: default", "version: none", "group: none", "callers: anyone",
                "token: none", "mock: none", "stub: none",
                "url: none: the registry", "maxConnections: cores", "ioThreads: min(cores + 1, 32)",
                "host: all local addresses", "partialFrameBudgetBytes: ¼ of the direct-memory limit",
                "serverKeyCertChainPath: none", "serverPrivateKeyPath: none", "serverKeyPassword: none",
                "serverTrustCertCollectionPath: none",
                "clientAuth: by trust: require with a server trust collection, else none",
                "clientKeyCertChainPath: none", "clientPrivateKeyPath: none", "clientKeyPassword: none",
                "clientTrustCertCollectionPath: the JVM's trusted CAs", "address: none",
                "file: ~/.ferry/registry-{application}-{host}-{port}.cache", "username: none", "password: none",
                "zookeeperTrustCertCollectionPath: the JVM's trusted CAs", "zookeeperKeyCertChainPath: none",
                "applicationVersion: none", "owner: none", "organization: none", "architecture: none",
                "environment: none"),
                notValues);
    }
}
