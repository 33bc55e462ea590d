package io.ferry.rpc.config.interop;

import io.ferry.rpc.config.ApplicationConfig;
import io.ferry.rpc.config.Ferry;
import io.ferry.rpc.config.fixtures.AdminClient;
import io.ferry.rpc.config.ProtocolConfig;
import io.ferry.rpc.config.ServiceConfig;
import io.ferry.rpc.config.fixtures.UserService;
import io.ferry.rpc.config.fixtures.UserServiceImpl;
import io.ferry.rpc.remoting.ClientOptions;
import io.ferry.rpc.remoting.Client;
import io.ferry.rpc.remoting.ProviderEndpoint;
import io.ferry.rpc.ClassAllowList;
import org.apache.dubbo.config.ReferenceConfig;
import org.apache.dubbo.config.RegistryConfig;
import org.apache.dubbo.config.bootstrap.DubboBootstrap;
import org.apache.dubbo.rpc.model.FrameworkModel;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Dubbo's readonly event ("R", sent by a provider that is shutting down or taken offline), honoured in both
 * directions, and the writeable event ("W") that undoes it.
 */
class DubboReadonlyInteropTest {
    @BeforeAll
    static void loopbackOnly() {
        DubboLoopback.ignoreOtherInterfaces();
    }

    @Test
    void aFerryConsumerStopsChoosingADubboProviderThatIsShuttingDown() throws Exception {
        System.setProperty("dubbo.service.shutdown.wait", "3000");
        org.apache.dubbo.config.ApplicationConfig application = DubboLoopback.application("dubbo-readonly-provider");
        org.apache.dubbo.config.ProtocolConfig protocol = new org.apache.dubbo.config.ProtocolConfig("dubbo", -1);
        protocol.setSerialization("hessian2");
        protocol.setHost("127.0.0.1");
        org.apache.dubbo.config.ServiceConfig<UserService> service = new org.apache.dubbo.config.ServiceConfig<>();
        service.setInterface(UserService.class);
        service.setRef(new UserServiceImpl());
        // a framework model of its own: Dubbo's protocol server (which sends "R") closes with its framework model
        FrameworkModel framework = new FrameworkModel();
        DubboBootstrap dubbo = DubboBootstrap.newInstance(framework);
        dubbo.application(application).registry(new RegistryConfig("N/A")).protocol(protocol).service(service)
                .start();
        int port = service.getExportedUrls().get(0).getPort();
        Thread shutdown = new Thread(framework::destroy, "dubbo-shutdown");
        try (Client transport = Client.create(2);
             ProviderEndpoint client = transport.endpoints(UserService.class, ClassAllowList.none(),
                     ClientOptions.builder().connections(1).build())
                     .open(new InetSocketAddress("127.0.0.1", port), 100, Duration.ZERO)) {
            client.whenReady().get(10, TimeUnit.SECONDS);
            assertTrue(client.isReady());

            shutdown.start(); // Dubbo sends "R" (in fastjson2), then waits before closing its channels
            await("the Ferry client saw the readonly event").atMost(Duration.ofSeconds(10))
                    .until(() -> !client.isReady());
            assertEquals(1, client.openConnections(), "the connection is still open: only readonly");
        } finally {
            shutdown.join(20_000);
            System.clearProperty("dubbo.service.shutdown.wait");
        }
    }

    @Test
    void aDubboConsumerStopsChoosingAFerryProviderThatIsShuttingDown() throws Exception {
        Ferry ferry = Ferry.builder().protocol(ProtocolConfig.builder().host("127.0.0.1").port(0)
                .shutdown(Duration.ofSeconds(3), Duration.ofSeconds(5)).build()).shutdownHook(false).build();
        int port = ferry.export(ServiceConfig.builder(UserService.class, new UserServiceImpl()).build());

        org.apache.dubbo.config.ApplicationConfig application = DubboLoopback.application("dubbo-readonly-consumer");
        ReferenceConfig<UserService> reference = new ReferenceConfig<>();
        reference.setInterface(UserService.class);
        reference.setUrl("dubbo://127.0.0.1:" + port + "?serialization=hessian2");
        reference.setTimeout(5000);
        reference.setRetries(0);
        DubboBootstrap dubbo = DubboBootstrap.newInstance();
        dubbo.application(application).reference(reference).start();
        Thread shutdown = new Thread(ferry::close, "ferry-shutdown");
        try {
            assertEquals("hello d", reference.get().hello("d"));
            assertTrue(reference.getInvoker().isAvailable());

            shutdown.start(); // Ferry sends "R" (in hessian2), then keeps serving for its 3 s grace
            await("the Dubbo consumer saw the readonly event").atMost(Duration.ofSeconds(10))
                    .until(() -> !reference.getInvoker().isAvailable());
            assertFalse(reference.getInvoker().isAvailable());
        } finally {
            shutdown.join(20_000);
            dubbo.destroy();
        }
    }

    @Test
    void aDubboConsumerLeavesAFerryProviderTakenOfflineAndComesBackAfterOnline() throws Exception {
        Ferry ferry = Ferry.builder()
                .application(ApplicationConfig.builder().name("offline-provider").qosEnable(true).qosPort(0).build())
                .protocol(ProtocolConfig.builder().host("127.0.0.1").port(0).build()).shutdownHook(false).build();
        int port = ferry.export(ServiceConfig.builder(UserService.class, new UserServiceImpl()).build());
        AdminClient admin = new AdminClient();

        ReferenceConfig<UserService> reference = DubboLoopback.reference(UserService.class);
        reference.setUrl("dubbo://127.0.0.1:" + port + "?serialization=hessian2");
        DubboBootstrap dubbo = DubboBootstrap.newInstance();
        dubbo.application(DubboLoopback.application("dubbo-offline-consumer")).reference(reference).start();
        try {
            assertEquals("hello d", reference.get().hello("d"));
            assertEquals(200, admin.post(ferry, "/offline").status());
            await("the Dubbo consumer saw the readonly event").atMost(Duration.ofSeconds(10))
                    .until(() -> !reference.getInvoker().isAvailable());
            assertEquals(200, admin.post(ferry, "/online").status());
            await("the Dubbo consumer saw the writeable event").atMost(Duration.ofSeconds(10))
                    .until(() -> reference.getInvoker().isAvailable());
            assertEquals("hello e", reference.get().hello("e"));
        } finally {
            dubbo.destroy();
            ferry.close();
        }
    }
}
