package io.ferry.rpc.config.interop;

import io.ferry.rpc.config.ApplicationConfig;
import io.ferry.rpc.config.Ferry;
import io.ferry.rpc.config.ProtocolConfig;
import io.ferry.rpc.config.ServiceConfig;
import io.ferry.rpc.config.fixtures.UserService;
import io.ferry.rpc.config.fixtures.UserServiceImpl;
import io.ferry.rpc.registry.EmbeddedZooKeeper;
import io.ferry.rpc.registry.RegistryOptions;
import org.apache.dubbo.config.ReferenceConfig;
import org.apache.dubbo.config.bootstrap.DubboBootstrap;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
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
    @TempDir
    static Path tmp;
    private static EmbeddedZooKeeper zk;
    private static Ferry ferry;
    private static int port;
    private static final AtomicInteger HELLOS = new AtomicInteger();
    private static final DubboBootstrap[] DUBBO = new DubboBootstrap[2];

    static final class CountingUsers extends UserServiceImpl {
        @Override
        public String hello(String name) {
            HELLOS.incrementAndGet();
            return super.hello(name);
        }
    }

    @BeforeAll
    static void start() {
        DubboLoopback.ignoreOtherInterfaces();
        System.setProperty("dubbo.application.service-discovery.migration", "FORCE_INTERFACE");
        zk = EmbeddedZooKeeper.start("127.0.0.1", 0, Duration.ofMillis(500));
        ferry = Ferry.builder().application(ApplicationConfig.of("ferry-token-provider"))
                .protocol(ProtocolConfig.builder().host("127.0.0.1").port(0).build())
                .registry(io.ferry.rpc.config.RegistryConfig.of(RegistryOptions.builder()
                        .address("127.0.0.1", zk.port()).cacheFile(tmp.resolve("p.cache")).build()))
                .build();
        port = ferry.export(ServiceConfig.builder(UserService.class, new CountingUsers()).token("true").build());
    }

    @AfterAll
    static void stop() {
        for (DubboBootstrap dubbo : DUBBO) {
            if (dubbo != null) {
                dubbo.destroy();
            }
        }
        if (ferry != null) {
            ferry.close();
        }
        if (zk != null) {
            zk.close();
        }
        System.clearProperty("dubbo.application.service-discovery.migration");
    }

    /** A Dubbo consumer of its own: through the registry when {@code url} is null, else to that url. */
    private static UserService dubboConsumer(int slot, String url) {
        ReferenceConfig<UserService> reference = DubboLoopback.reference(UserService.class);
        DubboBootstrap dubbo = DubboBootstrap.newInstance();
        DUBBO[slot] = dubbo;
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
