package io.ferry.rpc.testkit;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The JVM-wide system properties a ZooKeeper server in this process reads for a TLS client port (it takes them no
 * other way), set from a {@link TestPki} while this is open and restored by {@link #close()}: its Netty connection
 * factory, its certificate for 127.0.0.1, the test CA as its trust store, client certificates required (ZooKeeper's
 * default) and checked by its X509 provider. Start the server with {@code EmbeddedZooKeeper.startSecure} after
 * opening this. Server side only: Ferry configures each ZooKeeper client on its own and must not depend on these.
 * Tests in one JVM run one after another; two of these open at once would overwrite each other.
 */
public final class ZooKeeperServerTls implements AutoCloseable {
    private final Map<String, String> previous = new LinkedHashMap<>();

    private ZooKeeperServerTls(Map<String, String> properties) {
        properties.forEach((key, value) -> previous.put(key, System.setProperty(key, value)));
    }

    /** Serves as {@code CN=zookeeper} of {@code pki}, and requires clients to present a certificate of it. */
    public static ZooKeeperServerTls open(TestPki pki) {
        Path keyStore = pki.keyAndChain(pki.server("zookeeper"), "zookeeper-keystore.pem");
        Map<String, String> properties = new LinkedHashMap<>();
        properties.put("zookeeper.serverCnxnFactory", "org.apache.zookeeper.server.NettyServerCnxnFactory");
        properties.put("zookeeper.ssl.keyStore.location", keyStore.toString());
        properties.put("zookeeper.ssl.keyStore.type", "PEM");
        properties.put("zookeeper.ssl.trustStore.location", pki.caCertificate().toString());
        properties.put("zookeeper.ssl.trustStore.type", "PEM");
        properties.put("zookeeper.ssl.clientAuth", "need");
        properties.put("zookeeper.authProvider.x509", "org.apache.zookeeper.server.auth.X509AuthenticationProvider");
        return new ZooKeeperServerTls(properties);
    }

    @Override
    public void close() {
        previous.forEach((key, value) -> {
            if (value == null) {
                System.clearProperty(key);
            } else {
                System.setProperty(key, value);
            }
        });
        previous.clear();
    }
}
