package io.ferry.rpc.config.interop;

import io.ferry.rpc.config.Ferry;
import io.ferry.rpc.config.ServiceConfig;
import io.ferry.rpc.config.fixtures.UserService;
import io.ferry.rpc.config.fixtures.UserServiceImpl;
import io.ferry.rpc.registry.EmbeddedZooKeeper;
import org.apache.dubbo.config.ReferenceConfig;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.data.ACL;
import org.apache.zookeeper.data.Id;
import org.apache.zookeeper.server.auth.DigestAuthenticationProvider;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A stock Apache Dubbo 3.3.6 consumer with a registry username and password finds a Ferry provider holding the same
 * credentials through ZooKeeper and calls it; both give their nodes the same ACL.
 */
class DubboRegistryCredentialsInteropTest {
    private static final String USERNAME = "shop";
    private static final String PASSWORD = "s3cret-Pa55";
    private static final String SERVICE_PATH = "/dubbo/" + UserService.class.getName();

    @RegisterExtension
    static final DubboZooKeeperPeers PEERS = new DubboZooKeeperPeers();
    private static EmbeddedZooKeeper zk;
    private static UserService users;

    @BeforeAll
    static void start() {
        zk = PEERS.zooKeeper();
        PEERS.ferryProvider(ServiceConfig.builder(UserService.class, new UserServiceImpl()).build(),
                b -> b.credentials(USERNAME, PASSWORD));
        org.apache.dubbo.config.RegistryConfig registry = DubboLoopback.zooKeeper(zk.port());
        registry.setUsername(USERNAME);
        registry.setPassword(PASSWORD);
        ReferenceConfig<UserService> reference = DubboLoopback.reference(UserService.class);
        PEERS.dubbo().application(DubboLoopback.application("dubbo-zk-consumer")).registry(registry)
                .reference(reference).start();
        users = reference.get();
    }

    @Test
    void aDubboConsumerWithTheCredentialsFindsAndCallsTheFerryProvider() throws Exception {
        assertEquals("hello zk", users.hello("zk"));
        assertEquals(UserServiceImpl.user(2), users.getUser(2));
    }

    @Test
    void dubboAndFerryGiveTheirNodesTheSameAclAndNothingToOthers() throws Exception {
        List<ACL> creatorAll = List.of(new ACL(ZooDefs.Perms.ALL,
                new Id("digest", DigestAuthenticationProvider.generateDigest(USERNAME + ":" + PASSWORD))));
        ZooKeeper owner = raw(USERNAME + ":" + PASSWORD);
        ZooKeeper anyone = raw(null);
        try {
            List<String> dubbosNodes = Awaitility.await("the Dubbo consumer's node").atMost(Duration.ofSeconds(15))
                    .until(() -> owner.getChildren(SERVICE_PATH + "/consumers", false), l -> !l.isEmpty());
            assertEquals(creatorAll, owner.getACL(SERVICE_PATH + "/consumers/" + dubbosNodes.get(0), null),
                    "Dubbo's node");
            assertEquals(creatorAll, owner.getACL(SERVICE_PATH + "/consumers", null), "Dubbo's parent");
            String ferrysNode = owner.getChildren(SERVICE_PATH + "/providers", false).get(0);
            assertEquals(creatorAll, owner.getACL(SERVICE_PATH + "/providers/" + ferrysNode, null), "Ferry's node");
            assertThrows(KeeperException.NoAuthException.class,
                    () -> anyone.getChildren(SERVICE_PATH + "/providers", false));
        } finally {
            owner.close();
            anyone.close();
        }
    }

    private static ZooKeeper raw(String credentials) throws Exception {
        CountDownLatch connected = new CountDownLatch(1);
        ZooKeeper raw = new ZooKeeper(zk.connectString(), 4000, e -> connected.countDown());
        assertTrue(connected.await(10, TimeUnit.SECONDS));
        if (credentials != null) {
            raw.addAuthInfo("digest", credentials.getBytes(StandardCharsets.UTF_8));
        }
        return raw;
    }
}
