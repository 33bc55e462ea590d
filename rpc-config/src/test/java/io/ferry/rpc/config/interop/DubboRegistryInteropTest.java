package io.ferry.rpc.config.interop;

import io.ferry.rpc.config.Ferry;
import io.ferry.rpc.config.ServiceConfig;
import io.ferry.rpc.config.fixtures.UserService;
import io.ferry.rpc.config.fixtures.UserServiceImpl;
import io.ferry.rpc.registry.EmbeddedZooKeeper;
import io.ferry.rpc.registry.ServiceUrl;
import org.apache.dubbo.config.ReferenceConfig;
import org.apache.zookeeper.ZooKeeper;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A stock Apache Dubbo 3.3.6 consumer finds a Ferry provider through ZooKeeper and calls it. */
class DubboRegistryInteropTest {
    @RegisterExtension
    static final DubboZooKeeperPeers PEERS = new DubboZooKeeperPeers();
    private static EmbeddedZooKeeper zk;
    private static UserService users;

    @BeforeAll
    static void start() {
        zk = PEERS.zooKeeper();
        PEERS.ferryProvider(ServiceConfig.builder(UserService.class, new UserServiceImpl()).build(), b -> b);
        ReferenceConfig<UserService> reference = DubboLoopback.reference(UserService.class);
        PEERS.dubbo().application(DubboLoopback.application("dubbo-zk-consumer"))
                .registry(DubboLoopback.zooKeeper(zk.port())).reference(reference).start();
        users = reference.get();
    }

    @Test
    void dubboConsumerDiscoversAndCallsTheFerryProvider() throws Exception {
        assertEquals("hello zk", users.hello("zk"));
        assertEquals(UserServiceImpl.user(2), users.getUser(2));
    }

    @Test
    void ferrysProviderUrlSaysHessian2AndNeverFastjson2() throws Exception {
        CountDownLatch connected = new CountDownLatch(1);
        ZooKeeper raw = new ZooKeeper(zk.connectString(), 4000, e -> connected.countDown());
        try {
            assertTrue(connected.await(10, TimeUnit.SECONDS));
            List<String> children = raw.getChildren("/dubbo/" + UserService.class.getName() + "/providers", false);
            assertEquals(1, children.size());
            ServiceUrl url = ServiceUrl.decode(children.get(0));
            assertEquals("hessian2", url.parameter("serialization"));
            assertFalse(url.parameters().containsKey("prefer.serialization"));
            assertEquals("127.0.0.1", url.host());
            assertEquals(UserService.class.getName(), url.parameter("interface"));
            assertTrue(url.parameter("methods").contains("hello"));
            assertEquals("provider", url.parameter("side"));
        } finally {
            raw.close();
        }
    }
}
