package io.ferry.rpc.config.interop;

import io.ferry.rpc.config.ApplicationConfig;
import io.ferry.rpc.config.Ferry;
import io.ferry.rpc.config.ProtocolConfig;
import io.ferry.rpc.config.ServiceConfig;
import io.ferry.rpc.config.fixtures.ZooKeeperFixture;
import io.ferry.rpc.registry.EmbeddedZooKeeper;
import io.ferry.rpc.registry.RegistryOptions;
import io.ferry.rpc.registry.ServiceUrl;
import org.apache.dubbo.config.bootstrap.DubboBootstrap;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * A real ZooKeeper in this process on 127.0.0.1, the Ferry providers registered in it, and the Dubbo 3.3.6 peers a
 * test class starts beside them, for the whole class: Dubbo's peers in interface mode (as Ferry registers), traffic on
 * loopback only; everything closed after the class, Dubbo first. Register it as a static
 * {@code @RegisterExtension} field.
 */
final class DubboZooKeeperPeers implements BeforeAllCallback, AfterAllCallback {
    private static final String MIGRATION = "dubbo.application.service-discovery.migration";

    private final List<DubboBootstrap> dubbos = new ArrayList<>();
    private final List<Ferry> ferries = new ArrayList<>();
    private EmbeddedZooKeeper zk;
    private Path dir;

    @Override
    public void beforeAll(ExtensionContext context) throws IOException {
        DubboLoopback.ignoreOtherInterfaces();
        System.setProperty(MIGRATION, "FORCE_INTERFACE");
        dir = Files.createTempDirectory("ferry-dubbo-zk");
        zk = EmbeddedZooKeeper.start("127.0.0.1", 0, Duration.ofMillis(500));
    }

    EmbeddedZooKeeper zooKeeper() {
        return zk;
    }

    /**
     * Exports {@code service} from a Ferry provider on 127.0.0.1 registered in this ZooKeeper, its registry options
     * as {@code registry} leaves them; returns the port.
     */
    int ferryProvider(ServiceConfig<?> service, UnaryOperator<RegistryOptions.Builder> registry) {
        return ferry(ApplicationConfig.of("ferry-provider"), registry).export(service);
    }

    /**
     * A Ferry named {@code name} on 127.0.0.1, registered in this ZooKeeper, with its admin port on a free port
     * ({@code qos-port 0}, read it with {@link Ferry#adminPort()}); it exports nothing yet.
     */
    Ferry ferryWithAdminPort(String name) {
        return ferry(ApplicationConfig.builder().name(name).qosEnable(true).qosPort(0).build(), b -> b);
    }

    private Ferry ferry(ApplicationConfig application, UnaryOperator<RegistryOptions.Builder> registry) {
        Ferry ferry = Ferry.builder().application(application)
                .protocol(ProtocolConfig.builder().host("127.0.0.1").port(0).build())
                .registry(io.ferry.rpc.config.RegistryConfig.of(registry.apply(RegistryOptions.builder()
                        .address("127.0.0.1", zk.port()).cacheFile(dir.resolve(application.name() + "-"
                                + ferries.size() + ".cache"))).build()))
                .shutdownHook(false).build();
        ferries.add(ferry);
        return ferry;
    }

    /** The provider URLs registered in this ZooKeeper for {@code service}, as Dubbo's consumers find them. */
    List<ServiceUrl> registeredProviders(Class<?> service) throws Exception {
        return ZooKeeperFixture.registeredProviders(zk, service);
    }

    /** A Dubbo bootstrap, destroyed after the class. */
    DubboBootstrap dubbo() {
        DubboBootstrap dubbo = DubboBootstrap.newInstance();
        dubbos.add(dubbo);
        return dubbo;
    }

    @Override
    public void afterAll(ExtensionContext context) {
        dubbos.forEach(DubboBootstrap::destroy);
        ferries.forEach(Ferry::close);
        if (zk != null) {
            zk.close();
        }
        System.clearProperty(MIGRATION);
    }
}
