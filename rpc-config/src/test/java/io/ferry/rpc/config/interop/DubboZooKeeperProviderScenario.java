package io.ferry.rpc.config.interop;

import io.ferry.rpc.RpcException;
import io.ferry.rpc.RpcStatus;
import io.ferry.rpc.config.ApplicationConfig;
import io.ferry.rpc.config.Ferry;
import io.ferry.rpc.config.ReferenceConfig;
import io.ferry.rpc.config.RegistryConfig;
import io.ferry.rpc.config.fixtures.DemoService;
import io.ferry.rpc.config.fixtures.DemoServiceImpl;
import io.ferry.rpc.config.fixtures.UserService;
import io.ferry.rpc.config.fixtures.UserServiceImpl;
import io.ferry.rpc.registry.EmbeddedZooKeeper;
import io.ferry.rpc.registry.RegistryOptions;
import org.apache.dubbo.config.ProtocolConfig;
import org.apache.dubbo.config.ServiceConfig;
import org.apache.dubbo.config.bootstrap.DubboBootstrap;
import org.apache.dubbo.rpc.model.FrameworkModel;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooKeeper;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Run inside a network namespace whose only interface is loopback (see DubboZooKeeperProviderInteropTest): a
 * stock Dubbo 3.3.6 provider registers in an embedded ZooKeeper, and a Ferry consumer finds it there and calls it,
 * a service that asks for a token included.
 * A Dubbo provider will not register a loopback address while the host has another one; here it has none, so
 * every byte stays on 127.0.0.1. With the argument {@code credentials} both sides use the same ZooKeeper username
 * and password, and the Dubbo provider's nodes are checked to be closed to a client without them. Exits 0 when every
 * check passes.
 */
public final class DubboZooKeeperProviderScenario {
    private static final String USERNAME = "shop";
    private static final String PASSWORD = "s3cret-Pa55";

    public static void main(String[] args) throws Exception {
        boolean credentials = args.length > 0 && args[0].equals("credentials");
        EmbeddedZooKeeper zk = EmbeddedZooKeeper.start("127.0.0.1", 0, Duration.ofMillis(500));
        FrameworkModel framework = new FrameworkModel();
        Ferry ferry = null;
        try {
            org.apache.dubbo.config.ApplicationConfig application = DubboLoopback.application("dubbo-zk-provider");
            application.setRegisterMode("interface");
            ProtocolConfig protocol = new ProtocolConfig("dubbo", -1);
            protocol.setSerialization("hessian2");
            ServiceConfig<UserService> service = new ServiceConfig<>();
            service.setInterface(UserService.class);
            service.setRef(new UserServiceImpl());
            // a second service that asks for a token: Dubbo registers a random one in its URL
            ServiceConfig<DemoService> demo = new ServiceConfig<>();
            demo.setInterface(DemoService.class);
            demo.setRef(new DemoServiceImpl());
            demo.setToken("true");
            org.apache.dubbo.config.RegistryConfig registry = new org.apache.dubbo.config.RegistryConfig(
                    "zookeeper://127.0.0.1:" + zk.port());
            registry.setTimeout(10_000);
            if (credentials) {
                registry.setUsername(USERNAME);
                registry.setPassword(PASSWORD);
            }
            DubboBootstrap.newInstance(framework).application(application).registry(registry).protocol(protocol)
                    .service(service).service(demo).start();
            System.out.println("SCENARIO dubbo exported " + service.getExportedUrls());

            if (credentials) {
                checkClosedToOthers(zk);
            }
            Path cache = Files.createTempDirectory("ferry-scenario").resolve("registry.cache");
            RegistryOptions.Builder options = RegistryOptions.builder().address("127.0.0.1", zk.port())
                    .cacheFile(cache);
            if (credentials) {
                options.credentials(USERNAME, PASSWORD);
            }
            ferry = Ferry.builder().application(ApplicationConfig.of("ferry-zk-consumer")).shutdownHook(false)
                    .registry(RegistryConfig.of(options.build()))
                    .build();
            UserService users = ferry.reference(ReferenceConfig.builder(UserService.class)
                    .timeout(Duration.ofSeconds(5)).build());
            check("hello zk".equals(users.hello("zk")), "hello through discovery");
            check(UserServiceImpl.user(5).equals(users.getUser(5)), "a POJO through discovery");
            System.out.println("SCENARIO ferry consumer called the Dubbo provider it found in ZooKeeper: "
                    + users);
            tokenChecks(ferry, demo.getExportedUrls().get(0).getPort());
            System.out.println("SCENARIO OK");
        } catch (Throwable t) {
            t.printStackTrace(System.out);
            System.out.println("SCENARIO FAILED: " + t);
            System.exit(1);
        } finally {
            if (ferry != null) {
                ferry.close();
            }
            framework.destroy();
            zk.close();
        }
        System.exit(0);
    }

    /**
     * The Ferry consumer reads the token from the URL of the Dubbo service that asks for one and sends it; a call
     * with another token (a direct url's) is refused, FORBIDDEN and unrun, with no token in its message.
     */
    private static void tokenChecks(Ferry ferry, int port) {
        DemoService found = ferry.reference(ReferenceConfig.builder(DemoService.class)
                .timeout(Duration.ofSeconds(5)).build());
        check("Hello zk".equals(found.sayHello("zk")), "a token read from the registry");
        DemoService wrong = ferry.reference(ReferenceConfig.builder(DemoService.class)
                .url("dubbo://127.0.0.1:" + port + "?token=guess").timeout(Duration.ofSeconds(5)).build());
        try {
            wrong.sayHello("intruder");
            check(false, "a wrong token refused");
        } catch (RpcException e) {
            check(e.status() == RpcStatus.FORBIDDEN && e.isNotExecuted(), "FORBIDDEN and unrun: " + e);
            check(e.getMessage().contains("Invalid token! Forbid invoke remote service interface "
                    + DemoService.class.getName() + " method sayHello()"), "Dubbo's words: " + e.getMessage());
            check(!e.getMessage().contains("guess"), "no token echoed: " + e.getMessage());
        }
        System.out.println("SCENARIO token: found in ZooKeeper and sent; a wrong one refused as FORBIDDEN");
    }

    /** The Dubbo provider's nodes: listed and deleted only with the credentials. */
    private static void checkClosedToOthers(EmbeddedZooKeeper zk) throws Exception {
        String providers = "/dubbo/" + UserService.class.getName() + "/providers";
        CountDownLatch connected = new CountDownLatch(1);
        ZooKeeper anyone = new ZooKeeper(zk.connectString(), 4000, e -> connected.countDown());
        try {
            check(connected.await(10, TimeUnit.SECONDS), "a plain client connects");
            try {
                anyone.getChildren(providers, false);
                check(false, "a client without credentials lists the Dubbo provider");
            } catch (KeeperException.NoAuthException expected) {
                System.out.println("SCENARIO a client without credentials cannot list " + providers);
            }
        } finally {
            anyone.close();
        }
    }

    private static void check(boolean ok, String what) {
        if (!ok) {
            throw new AssertionError("check failed: " + what);
        }
    }
}
