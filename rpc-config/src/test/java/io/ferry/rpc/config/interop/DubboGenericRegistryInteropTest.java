package io.ferry.rpc.config.interop;

import io.ferry.rpc.Filter;
import io.ferry.rpc.config.ServiceConfig;
import io.ferry.rpc.config.fixtures.UserService;
import io.ferry.rpc.config.fixtures.UserServiceImpl;
import io.ferry.rpc.registry.EmbeddedZooKeeper;
import org.apache.dubbo.config.ReferenceConfig;
import org.apache.dubbo.rpc.service.GenericService;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A stock Apache Dubbo 3.3.6 generic consumer finds a Ferry provider through ZooKeeper. The provider's URL says
 * {@code generic=false}, as a Dubbo provider's does (see DubboGenericProviderInteropTest), and Dubbo's generic
 * consumer still sends {@code generic=true} with every call.
 */
class DubboGenericRegistryInteropTest {
    @RegisterExtension
    static final DubboZooKeeperPeers PEERS = new DubboZooKeeperPeers();
    private static GenericService users;
    /** The generic attachment of each call the Ferry provider served: "none" where there was none. */
    private static final Queue<String> GENERIC_SEEN = new ConcurrentLinkedQueue<>();

    @BeforeAll
    static void start() {
        EmbeddedZooKeeper zk = PEERS.zooKeeper();
        Filter seen = (invocation, next) -> {
            GENERIC_SEEN.add(String.valueOf(invocation.attachments().getOrDefault("generic", "none")));
            return next.invoke(invocation);
        };
        PEERS.ferryProvider(ServiceConfig.builder(UserService.class, new UserServiceImpl()).filter(seen).build(),
                b -> b);
        ReferenceConfig<GenericService> reference = new ReferenceConfig<>();
        reference.setInterface(UserService.class.getName());
        reference.setGeneric("true");
        reference.setTimeout(5000);
        reference.setRetries(0);
        PEERS.dubbo().application(DubboLoopback.application("dubbo-zk-generic-consumer"))
                .registry(DubboLoopback.zooKeeper(zk.port())).reference(reference).start();
        users = reference.get();
    }

    @Test
    void dubbosGenericConsumerDiscoversAndCallsTheFerryProvider() {
        assertEquals("hello zk", users.$invoke("hello", new String[] {"java.lang.String"}, new Object[] {"zk"}));
        Map<?, ?> user = (Map<?, ?>) users.$invoke("getUser", new String[] {"long"}, new Object[] {2L});
        assertEquals("user-2", user.get("name"));
        assertEquals("io.ferry.rpc.config.fixtures.User", user.get("class"));
        assertEquals(List.of("true", "true"), List.copyOf(GENERIC_SEEN));
    }
}
