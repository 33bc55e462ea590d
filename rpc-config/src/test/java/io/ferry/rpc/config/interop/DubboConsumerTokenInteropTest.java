package io.ferry.rpc.config.interop;

import io.ferry.rpc.config.Ferry;
import io.ferry.rpc.config.ServiceConfig;
import io.ferry.rpc.config.fixtures.UserService;
import io.ferry.rpc.config.fixtures.UserServiceImpl;
import io.ferry.rpc.registry.EmbeddedZooKeeper;
import org.apache.dubbo.config.ReferenceConfig;
import org.apache.dubbo.config.bootstrap.DubboBootstrap;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A stock Apache Dubbo 3.3.6 consumer and a Ferry provider with {@code token="true"}: found through ZooKeeper, the
 * consumer reads the token from the provider's URL and its calls go through; with another token (a direct url's),
 * it is refused, unrun, in the words a Dubbo provider uses.
 */
class DubboConsumerTokenInteropTest {
    @RegisterExtension
    static final DubboZooKeeperPeers PEERS = new DubboZooKeeperPeers();
    private static EmbeddedZooKeeper zk;
    private static int port;
    private static final AtomicInteger HELLOS = new AtomicInteger();

    static final class CountingUsers extends UserServiceImpl {
        @Override
        public String hello(String name) {
            HELLOS.incrementAndGet();
            return super.hello(name);
        }
    }

    @BeforeAll
    static void start() {
        zk = PEERS.zooKeeper();
        port = PEERS.ferryProvider(ServiceConfig.builder(UserService.class, new CountingUsers()).token("true")
                .build(), b -> b);
    }

    /** A Dubbo consumer of its own: through the registry when {@code url} is null, else to that url. */
    private static UserService dubboConsumer(int slot, String url) {
        ReferenceConfig<UserService> reference = DubboLoopback.reference(UserService.class);
        DubboBootstrap dubbo = PEERS.dubbo();
        dubbo.application(DubboLoopback.application("dubbo-token-consumer-" + slot));
        if (url == null) {
            dubbo.registry(DubboLoopback.zooKeeper(zk.port()));
        } else {
            reference.setUrl(url);
        }
        dubbo.reference(reference).start();
        return reference.get();
    }

    @Test
    void aDubboConsumerSendsTheTokenItReadInTheRegistryAndAWrongOneIsRefusedInDubbosWords() {
        assertEquals("hello dubbo", dubboConsumer(0, null).hello("dubbo"));
        assertEquals(1, HELLOS.get());

        UserService wrong = dubboConsumer(1, "dubbo://127.0.0.1:" + port + "?serialization=hessian2&token=guess");
        org.apache.dubbo.rpc.RpcException e = assertThrows(org.apache.dubbo.rpc.RpcException.class,
                () -> wrong.hello("intruder"));
        // Dubbo's consumer wraps the provider's status-70 string as a RemotingException, as it does Dubbo's own
        assertTrue(e.getMessage().contains("cause: org.apache.dubbo.remoting.RemotingException: Invalid token! "
                + "Forbid invoke remote service interface " + UserService.class.getName() + " method hello() from "
                + "consumer 127.0.0.1 to provider 127.0.0.1, the consumer sent another token (not shown)"),
                e.getMessage());
        String answered = e.getMessage().substring(e.getMessage().indexOf("cause: "));
        assertFalse(answered.contains("guess"), "Ferry does not echo a token: " + answered);
        assertEquals(1, HELLOS.get(), "the refused call did not run");
    }
}
