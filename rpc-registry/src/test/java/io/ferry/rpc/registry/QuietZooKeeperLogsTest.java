package io.ferry.rpc.registry;

import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The embedded server keeps ZooKeeper's banner and environment dumps out of the log (this module's tests use
 * slf4j-simple with no level set for ZooKeeper), while its warnings still show.
 */
class QuietZooKeeperLogsTest {
    @Test
    void zooKeepersInfoLinesAreOffAndItsWarningsOn() {
        try (EmbeddedZooKeeper zk = EmbeddedZooKeeper.start("127.0.0.1", 0, Duration.ofMillis(200))) {
            Logger server = LoggerFactory.getLogger("org.apache.zookeeper.server.ZooKeeperServer");
            Logger client = LoggerFactory.getLogger("org.apache.curator.framework.imps.CuratorFrameworkImpl");
            assertFalse(server.isInfoEnabled(), "no banner, no environment dump");
            assertFalse(client.isInfoEnabled());
            assertTrue(server.isWarnEnabled());
            assertTrue(zk.port() > 0);
            assertTrue(LoggerFactory.getLogger("io.ferry.rpc.registry.Anything").isInfoEnabled(),
                    "everything else as configured");
        }
    }
}
