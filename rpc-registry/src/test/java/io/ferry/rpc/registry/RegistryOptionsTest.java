package io.ferry.rpc.registry;

import io.ferry.rpc.registry.internal.ProviderCache;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The registry cache file: named after the application by default, or turned off. */
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
    void localhostOnTheDefaultPortIsTheEmbeddedDefaultToo() {
        RegistryOptions localhost = RegistryOptions.parse("zookeeper://localhost:2181").build();
        assertTrue(localhost.embedded());
        assertEquals("127.0.0.1", localhost.addresses().get(0).getHostString());
        assertTrue(RegistryOptions.parse(RegistryOptions.DEFAULT_ADDRESS).build().embedded());
        assertFalse(RegistryOptions.parse("zookeeper://10.0.0.1:2181").build().embedded());
        assertFalse(RegistryOptions.parse("zookeeper://127.0.0.1:2181?backup=10.0.0.2:2181").build().embedded(),
                "a cluster is never embedded");
    }
}
