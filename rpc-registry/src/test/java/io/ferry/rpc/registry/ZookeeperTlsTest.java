package io.ferry.rpc.registry;

import io.ferry.rpc.testkit.TestPki;
import io.ferry.rpc.testkit.ZooKeeperServerTls;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The registry over TLS, against a ZooKeeper in this process whose client port speaks TLS only and requires client
 * certificates (ZooKeeper's default), all from a test CA; and the mismatches that ZooKeeper itself would only retry.
 */
class ZookeeperTlsTest {
    private static final String SERVICE = "demo.Greeter";
    private static final Duration CONNECTION_TIMEOUT = Duration.ofSeconds(3);

    @TempDir
    Path tmp;
    private TestPki pki;
    /** Closed last first: registries, then servers, then the server's properties. */
    private final List<AutoCloseable> closeables = new ArrayList<>();

    @BeforeEach
    void createCa() {
        pki = TestPki.create(tmp, "ferry-zk");
    }

    @AfterEach
    void stop() throws Exception {
        Collections.reverse(closeables);
        for (AutoCloseable c : closeables) {
            c.close();
        }
    }

    private EmbeddedZooKeeper secureServer() {
        closeables.add(ZooKeeperServerTls.open(pki));
        EmbeddedZooKeeper zk = EmbeddedZooKeeper.startSecure("127.0.0.1", 0, Duration.ofMillis(200));
        closeables.add(zk);
        return zk;
    }

    private EmbeddedZooKeeper plainServer() {
        EmbeddedZooKeeper zk = EmbeddedZooKeeper.start("127.0.0.1", 0, Duration.ofMillis(200));
        closeables.add(zk);
        return zk;
    }

    private RegistryOptions.Builder options(EmbeddedZooKeeper zk, String cacheName) {
        return RegistryOptions.builder().address("127.0.0.1", zk.port()).sessionTimeout(Duration.ofSeconds(4))
                .connectionTimeout(CONNECTION_TIMEOUT).cacheFile(tmp.resolve(cacheName));
    }

    /** This CA's trust, and a client certificate of it. */
    private RegistryOptions.Builder tls(RegistryOptions.Builder options) {
        return options.tls(pki.caCertificate().toString())
                .tlsKeyCertChain(pki.keyAndChain(pki.client("ferry"), "ferry-keystore.pem").toString());
    }

    private ZookeeperRegistry open(RegistryOptions options) {
        ZookeeperRegistry registry = new ZookeeperRegistry(options);
        closeables.add(registry);
        return registry;
    }

    private static ServiceUrl provider(int port) {
        return new ServiceUrl("dubbo", "127.0.0.1", port, SERVICE, Map.of("interface", SERVICE, "side", "provider"));
    }

    @Test
    void aProviderRegistersAndAConsumerFindsItOverTlsWithClientCertificates() {
        EmbeddedZooKeeper zk = secureServer();
        open(tls(options(zk, "p.cache")).build()).register(provider(20001));
        List<List<ProviderInstance>> lists = new CopyOnWriteArrayList<>();
        open(tls(options(zk, "c.cache")).credentials("ferry", "pw").build())
                .subscribe(new ServiceKey(SERVICE, "", ""), lists::add);
        Awaitility.await().atMost(Duration.ofSeconds(15)).until(() -> !lists.isEmpty()
                && lists.get(lists.size() - 1).size() == 1);
        assertEquals(20001, lists.get(lists.size() - 1).get(0).port());
    }

    @Test
    void aTlsClientAtAPlainPortFailsAtStartSayingSo() {
        EmbeddedZooKeeper zk = plainServer();
        String message = failsAtStart(tls(options(zk, "c.cache")).build());
        assertTrue(message.contains("does not speak TLS on this port") && message.contains("secureClientPort"),
                message);
    }

    @Test
    void aPlainClientAtATlsPortFailsAtStartSayingSo() {
        EmbeddedZooKeeper zk = secureServer();
        String message = failsAtStart(options(zk, "c.cache").build());
        assertTrue(message.contains("speaks TLS on this port") && message.contains("zookeeperTls=true"), message);
    }

    @Test
    void aClientWithoutTheCertificateTheServerRequiresIsToldWhy() {
        EmbeddedZooKeeper zk = secureServer();
        String message = failsAtStart(options(zk, "c.cache").tls(pki.caCertificate().toString()).build());
        assertTrue(message.contains("the TLS handshake failed") && message.contains("zookeeperKeyCertChainPath"),
                message);
    }

    @Test
    void aServerCertificateOfAnotherCaIsRefused() throws Exception {
        EmbeddedZooKeeper zk = secureServer();
        Path otherDir = Files.createDirectory(tmp.resolve("other"));
        TestPki other = TestPki.create(otherDir, "other");
        String message = failsAtStart(tls(options(zk, "c.cache")).tls(other.caCertificate().toString()).build());
        assertTrue(message.contains("the TLS handshake failed") && message.contains("zookeeperTrustCertCollectionPath"),
                message);
    }

    @Test
    void aMissingTrustFileIsNamedBeforeAnyConnection() {
        EmbeddedZooKeeper zk = plainServer();
        String missing = tmp.resolve("missing-ca.pem").toString();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> open(options(zk, "c.cache").tls(missing).build()));
        assertTrue(e.getMessage().contains(missing), e.getMessage());
    }

    /**
     * Opens a registry that must fail at start, saying why (a hang would end at the test's timeout instead: no
     * wall-clock bound here, which a loaded machine could break).
     */
    private String failsAtStart(RegistryOptions options) {
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> open(options));
        assertTrue(e.getMessage().startsWith("ZooKeeper " + options.address()), e.getMessage());
        return e.getMessage();
    }
}
