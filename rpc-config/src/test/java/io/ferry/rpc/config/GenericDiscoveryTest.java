package io.ferry.rpc.config;

import io.ferry.rpc.GenericService;
import io.ferry.rpc.config.fixtures.UserService;
import io.ferry.rpc.config.fixtures.UserServiceImpl;
import io.ferry.rpc.config.fixtures.ZooKeeperFixture;
import io.ferry.rpc.registry.ServiceUrl;
import org.apache.zookeeper.ZooKeeper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A generic reference finds its providers through a real ZooKeeper by the interface's name, as Dubbo's does. */
class GenericDiscoveryTest {
    private static final String USERS = UserService.class.getName();

    @RegisterExtension
    final ZooKeeperFixture zk = new ZooKeeperFixture();

    @Test
    void aGenericReferenceDiscoversTheProviderAndRegistersAsDubbosGenericConsumerDoes() throws Exception {
        Ferry provider = zk.track(Ferry.builder().application(ApplicationConfig.of("users-provider"))
                .protocol(ProtocolConfig.builder().host("127.0.0.1").port(0).build())
                .registry(zk.registry("provider.cache")).build());
        provider.export(ServiceConfig.builder(UserService.class, new UserServiceImpl()).build());
        Ferry consumer = zk.track(Ferry.builder().application(ApplicationConfig.of("gateway"))
                .registry(zk.registry("consumer.cache")).build());
        GenericService users = consumer.reference(ReferenceConfig.generic(USERS).timeout(Duration.ofSeconds(5))
                .check(true).build());

        assertEquals("hello zk", users.$invoke("hello", new String[] {"java.lang.String"}, new Object[] {"zk"}));
        assertEquals("false", zk.registeredProviders(UserService.class).get(0).parameter("generic"));
        ServiceUrl registered = consumers().get(0);
        assertEquals(USERS, registered.parameter("interface"));
        assertEquals("true", registered.parameter("generic"));
        assertFalse(registered.parameters().containsKey("methods"), registered.toString());
        assertTrue(users.toString().contains(USERS), users.toString());
    }

    private List<ServiceUrl> consumers() throws Exception {
        CountDownLatch connected = new CountDownLatch(1);
        ZooKeeper raw = new ZooKeeper(zk.server().connectString(), 4000, e -> connected.countDown());
        try {
            assertTrue(connected.await(10, TimeUnit.SECONDS));
            return raw.getChildren("/dubbo/" + USERS + "/consumers", false).stream().map(ServiceUrl::decode)
                    .toList();
        } finally {
            raw.close();
        }
    }
}
