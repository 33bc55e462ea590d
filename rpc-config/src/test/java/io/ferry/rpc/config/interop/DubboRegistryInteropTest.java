package io.ferry.rpc.config.interop;

import io.ferry.rpc.config.ApplicationConfig;
import io.ferry.rpc.config.Ferry;
import io.ferry.rpc.config.ProtocolConfig;
import io.ferry.rpc.config.ServiceConfig;
import io.ferry.rpc.config.fixtures.UserService;
import io.ferry.rpc.config.fixtures.UserServiceImpl;
import io.ferry.rpc.registry.EmbeddedZooKeeper;
import io.ferry.rpc.registry.RegistryOptions;
import io.ferry.rpc.registry.ServiceUrl;
import org.apache.dubbo.config.ReferenceConfig;
import org.apache.dubbo.config.bootstrap.DubboBootstrap;
import org.apache.zookeeper.ZooKeeper;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A stock Apache Dubbo 3.3.6 consumer finds a Ferry provider through ZooKeeper and calls it. */
class DubboRegistryInteropTest {
    @TempDir
    static Path tmp;
    private static EmbeddedZooKeeper zk;
    private static Ferry ferry;
    private static DubboBootstrap dubbo;
    private static UserService users;

    @BeforeAll
    static void start() {
        DubboLoopback.ignoreOtherInterfaces();
        System.setProperty("dubbo.application.service-discovery.migration", "FORCE_INTERFACE");
        zk = EmbeddedZooKeeper.start("127.0.0.1", 0, Duration.ofMillis(500));
        ferry = Ferry.builder().application(ApplicationConfig.of("ferry-provider"))
                .protocol(ProtocolConfig.builder().host("127.0.0.1").port(0).build())
                .registry(io.ferry.rpc.config.RegistryConfig.of(RegistryOptions.builder()
                        .address("127.0.0.1", zk.port()).cacheFile(tmp.resolve("p.cache")).build()))
                .build();
        ferry.export(ServiceConfig.builder(UserService.class, new UserServiceImpl()).build());

        org.apache.dubbo.config.ApplicationConfig application = DubboLoopback.application("dubbo-zk-consumer");
        org.apache.dubbo.config.RegistryConfig registry = DubboLoopback.zooKeeper(zk.port());
        ReferenceConfig<UserService> reference = DubboLoopback.reference(UserService.class);
        dubbo = DubboBootstrap.newInstance();
        dubbo.application(application).registry(registry).reference(reference).start();
        users = reference.get();
    }

    @AfterAll
    static void stop() {
        if (dubbo != null) {
            dubbo.destroy();
        }
        if (ferry != null) {
            ferry.close();
        }
        if (zk != null) {
            zk.close();
        }
        System.clearProperty("dubbo.application.service-discovery.migration");
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
