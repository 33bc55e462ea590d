package io.ferry.rpc.registry;

import io.ferry.rpc.option.OptionValues;
import io.ferry.rpc.option.RegistryOptionKeys;
import io.ferry.rpc.registry.internal.ProviderCache;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Parsed registry options: the cache file, named after the application by default or turned off; and the embedded
 * server, only where {@code embedded=true} asks for it.
 */
class RegistryOptionsTest {
    @TempDir
    Path tmp;

    @Test
    void theDefaultCacheFileIsNamedAfterTheApplicationAndTheFirstAddress() {
        RegistryOptions options = RegistryOptions.parse("zookeeper://10.0.0.1:2181").build().forApplication("shop");
        assertEquals(Path.of(System.getProperty("user.home"), ".ferry", "registry-shop-10.0.0.1-2181.cache"),
                options.cacheFile());
    }

    @Test
    void theCacheFileCanBeTurnedOffAndListsThenStayInMemory() {
        RegistryOptions off = RegistryOptions.parse("zookeeper://10.0.0.1:2181").noCacheFile().build()
                .forApplication("shop");
        assertNull(off.cacheFile());
        ProviderCache cache = new ProviderCache(off.cacheFile());
        cache.put("com.acme.Greeter", List.of("a", "b"));
        assertEquals(List.of("a", "b"), cache.get("com.acme.Greeter"));
    }

    @Test
    void aCacheFileIsWrittenWhereItIsSet() {
        Path file = tmp.resolve("c.cache");
        ProviderCache cache = new ProviderCache(file);
        assertFalse(Files.exists(file));
        cache.put("com.acme.Greeter", List.of("a"));
        assertTrue(Files.exists(file));
        assertEquals(List.of("a"), new ProviderCache(file).get("com.acme.Greeter"));
    }

    @Test
    void theCacheFileIsTheOwnersAloneForItHoldsProvidersTokens() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(tmp.getFileSystem().supportedFileAttributeViews()
                .contains("posix"), "POSIX permissions");
        Path file = tmp.resolve("tokens.cache");
        new ProviderCache(file).put("com.acme.Greeter", List.of("dubbo%3A%2F%2Fh%3A1%2Fx%3Ftoken%3Ds3cret"));
        assertEquals("rw-------", java.nio.file.attribute.PosixFilePermissions.toString(
                Files.getPosixFilePermissions(file)));
    }

    @Test
    void aPlainAddressIsNeverEmbeddedNotEvenTheDefaultOne() {
        for (String address : List.of(RegistryOptions.DEFAULT_ADDRESS, "zookeeper://localhost:2181",
                "zookeeper://127.0.0.1:2181?embedded=false", "zookeeper://10.0.0.1:2181")) {
            assertFalse(RegistryOptions.parse(address).build().embedded(), address);
        }
        assertFalse(RegistryOptions.builder().build().embedded(), "the builder's default address: a ZooKeeper of "
                + "your own on this machine");
        assertEquals("localhost", RegistryOptions.parse("zookeeper://localhost:2181").build().addresses().get(0)
                .getHostString(), "a plain address is kept as given");
    }

    @Test
    void embeddedTrueOptsInOnAnyLoopbackHostAndPort() {
        RegistryOptions embedded = RegistryOptions.parse(RegistryOptions.EMBEDDED_ADDRESS).build();
        assertTrue(embedded.embedded());
        assertEquals("127.0.0.1:2181", embedded.connectString());
        RegistryOptions localhost = RegistryOptions.parse("zookeeper://localhost:3181?embedded=true").build();
        assertTrue(localhost.embedded());
        assertEquals("127.0.0.1:3181", localhost.connectString(), "one address every process agrees on");
        assertTrue(RegistryOptions.parse("zookeeper://127.0.0.2:2999?embedded=TRUE").build().embedded());
        assertTrue(RegistryOptions.builder().address("127.0.0.1", 4181).embedded(true).build().embedded());
    }

    @Test
    void theOptInShowsInTheAddress() {
        assertEquals("zookeeper://127.0.0.1:2181?embedded=true",
                RegistryOptions.parse(RegistryOptions.EMBEDDED_ADDRESS).build().toString());
        assertEquals("zookeeper://127.0.0.1:2181?embedded=true",
                RegistryOptions.parse("zookeeper://localhost:2181?embedded=true").build().forApplication("shop")
                        .address(), "kept when the cache file is named after the application");
        assertEquals("zookeeper://127.0.0.1:2181", RegistryOptions.parse(RegistryOptions.DEFAULT_ADDRESS).build()
                .toString());
    }

    @Test
    void theOptInOnAnotherHostIsRefusedNamingIt() {
        for (String host : List.of("10.0.0.5", "zk1.example.com", "128.0.0.1", "127.0.0.1.example.com")) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> RegistryOptions.parse("zookeeper://" + host + ":2181?embedded=true").build());
            assertEquals("embedded=true: " + host + ":2181 is not a loopback address (expected: 127.0.0.1, another "
                    + "127.x.x.x or localhost; an embedded ZooKeeper serves this machine only: for " + host
                    + " run a ZooKeeper there and leave out embedded=true)", e.getMessage());
        }
        assertThrows(IllegalArgumentException.class,
                () -> RegistryOptions.builder().address("10.0.0.5", 2181).embedded(true).build());
        IllegalArgumentException backups = assertThrows(IllegalArgumentException.class, () -> RegistryOptions
                .parse("zookeeper://127.0.0.1:2181?backup=127.0.0.1:2182&embedded=true").build());
        assertTrue(backups.getMessage().startsWith("embedded=true: 2 addresses (expected: one;"),
                backups.getMessage());
        IllegalArgumentException yes = assertThrows(IllegalArgumentException.class,
                () -> RegistryOptions.parse("zookeeper://127.0.0.1:2181?embedded=yes"));
        assertEquals("registry address: zookeeper://127.0.0.1:2181?embedded=yes: embedded: 'yes' (expected: true or "
                + "false)", yes.getMessage());
    }

    @Test
    void theBuilderReadsDefaultsAndChecksValuesThroughTheDeclaredOptions() {
        RegistryOptions defaults = RegistryOptions.builder().build();
        assertEquals(RegistryOptionKeys.SESSION_TIMEOUT.defaultValue(), defaults.sessionTimeout());
        assertEquals(RegistryOptionKeys.CONNECTION_TIMEOUT.defaultValue(), defaults.connectionTimeout());
        assertEquals(OptionValues.none(), defaults.values(), "nothing set: each option reads as its default");

        assertEquals("sessionTimeout: 0ms (expected: > 0)", assertThrows(IllegalArgumentException.class,
                () -> RegistryOptions.builder().sessionTimeout(Duration.ZERO)).getMessage());
        assertEquals("connectionTimeout: -1ms (expected: > 0)", assertThrows(IllegalArgumentException.class,
                () -> RegistryOptions.builder().option(RegistryOptionKeys.CONNECTION_TIMEOUT, Duration.ofMillis(-1)))
                .getMessage());
        assertEquals("option: address (expected: a registry option, one of [check, connectionTimeout, file, password, "
                + "sessionTimeout, username, zookeeperKeyCertChainPath, zookeeperTls, "
                + "zookeeperTrustCertCollectionPath])", assertThrows(IllegalArgumentException.class,
                () -> RegistryOptions.builder().option(RegistryOptionKeys.ADDRESS, "zookeeper://h:1")).getMessage());

        OptionValues set = OptionValues.none().with(RegistryOptionKeys.SESSION_TIMEOUT, Duration.ofSeconds(4))
                .with(RegistryOptionKeys.FILE, RegistryOptionKeys.NO_FILE);
        RegistryOptions options = RegistryOptions.parse("zookeeper://10.0.0.1:2181").options(set).build();
        assertEquals(Duration.ofSeconds(4), options.sessionTimeout());
        assertNull(options.forApplication("shop").cacheFile(), "file=none: no cache file");
        assertEquals(set, options.forApplication("shop").values());
    }

    // ---- security settings: whole or refused

    @Test
    void credentialsComeInPairsAndAUsernameHasNoColon() {
        RegistryOptions.Builder address = RegistryOptions.parse("zookeeper://10.0.0.1:2181");
        assertEquals("password: none with username 'u' (expected: both username and password, or neither)",
                assertThrows(IllegalArgumentException.class, () -> RegistryOptions.parse("zookeeper://10.0.0.1:2181")
                        .option(RegistryOptionKeys.USERNAME, "u").build()).getMessage());
        assertTrue(assertThrows(IllegalArgumentException.class, () -> RegistryOptions.parse(
                "zookeeper://10.0.0.1:2181").option(RegistryOptionKeys.PASSWORD, "p").build()).getMessage()
                .startsWith("username: none with a password"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> address.credentials("a:b", "p").build())
                .getMessage().startsWith("username: 'a:b' (expected: no ':'"));
    }

    @Test
    void anAddressCarryingCredentialsIsRefusedWithoutEchoingThem() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> RegistryOptions.parse("zookeeper://admin:hunter2@10.0.0.1:2181"));
        assertEquals("registry address: zookeeper://******@10.0.0.1:2181 (expected: no user or password in the "
                + "address; set the registry's username and password)", e.getMessage());
    }

    @Test
    void tlsFilesWithoutTlsAndTlsToAnEmbeddedServerAreRefused() {
        assertTrue(assertThrows(IllegalArgumentException.class, () -> RegistryOptions.parse(
                "zookeeper://10.0.0.1:2181").option(RegistryOptionKeys.ZOOKEEPER_TRUST_CERT_COLLECTION_PATH, "ca.pem")
                .build()).getMessage().startsWith("zookeeperTrustCertCollectionPath: ca.pem while zookeeperTls is "
                + "false"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> RegistryOptions.parse(
                "zookeeper://127.0.0.1:2181?embedded=true").tls("ca.pem").build()).getMessage()
                .startsWith("embedded=true with zookeeperTls=true"));
        assertTrue(RegistryOptions.parse("zookeeper://10.0.0.1:2281").tls("ca.pem").build().tls());
    }

    @Test
    void thePasswordIsKeptThroughForApplicationAndNeverShown() {
        RegistryOptions options = RegistryOptions.parse("zookeeper://10.0.0.1:2181").credentials("u", "hunter2")
                .build().forApplication("shop");
        assertEquals("u", options.username());
        assertEquals("u:hunter2", new String(options.digestAuthentication(), java.nio.charset.StandardCharsets.UTF_8));
        assertFalse((options + " " + options.values()).contains("hunter2"), options + " " + options.values());
        assertEquals(OptionValues.none().with(RegistryOptionKeys.PASSWORD, "x").toString(), "{password=******}");
    }
}
