package io.ferry.rpc.config.interop;

import io.ferry.rpc.RpcException;
import io.ferry.rpc.RpcStatus;
import io.ferry.rpc.config.ApplicationConfig;
import io.ferry.rpc.config.Ferry;
import io.ferry.rpc.config.ReferenceConfig;
import io.ferry.rpc.config.fixtures.UserService;
import io.ferry.rpc.config.fixtures.UserServiceImpl;
import org.apache.dubbo.config.ProtocolConfig;
import org.apache.dubbo.config.RegistryConfig;
import org.apache.dubbo.config.ServiceConfig;
import org.apache.dubbo.config.bootstrap.DubboBootstrap;
import org.apache.dubbo.rpc.model.FrameworkModel;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A Ferry consumer and a stock Apache Dubbo 3.3.6 provider whose service asks for a token, named in the Ferry
 * reference's url: the right one goes through; Dubbo's refusal of a wrong or missing one (measured: status 70, its
 * exception's toString and stack, the first line ending with the token the call carried) is a FORBIDDEN
 * RpcException, unrun, that names the refusal without the stack and without any token. (Found through ZooKeeper:
 * {@link DubboZooKeeperProviderScenario}.)
 */
class DubboProviderTokenInteropTest {
    private static FrameworkModel framework;
    private static Ferry ferry;
    private static int port;

    @BeforeAll
    static void start() {
        DubboLoopback.ignoreOtherInterfaces();
        ProtocolConfig protocol = new ProtocolConfig("dubbo", -1);
        protocol.setSerialization("hessian2");
        protocol.setHost("127.0.0.1");
        ServiceConfig<UserService> service = new ServiceConfig<>();
        service.setInterface(UserService.class);
        service.setRef(new UserServiceImpl());
        service.setToken("dubbo-s3cr3t");
        framework = new FrameworkModel();
        DubboBootstrap.newInstance(framework).application(DubboLoopback.application("dubbo-token-provider"))
                .registry(new RegistryConfig("N/A")).protocol(protocol).service(service).start();
        port = service.getExportedUrls().get(0).getPort();
        ferry = Ferry.builder().application(ApplicationConfig.of("ferry-token-consumer")).shutdownHook(false)
                .build();
    }

    @AfterAll
    static void stop() {
        if (ferry != null) {
            ferry.close();
        }
        if (framework != null) {
            framework.destroy();
        }
    }

    private static UserService reference(String query) {
        return ferry.reference(ReferenceConfig.builder(UserService.class).url("dubbo://127.0.0.1:" + port + query)
                .timeout(Duration.ofSeconds(5)).build());
    }

    @Test
    void theRightTokenGoesThrough() {
        assertEquals("hello dubbo", reference("?token=dubbo-s3cr3t").hello("dubbo"));
    }

    @Test
    void dubbosRefusalIsAForbiddenRpcExceptionThatEchoesNoToken() {
        for (String query : new String[] {"?token=guess", ""}) {
            RpcException e = assertThrows(RpcException.class, () -> reference(query).hello("intruder"));
            assertEquals(RpcStatus.FORBIDDEN, e.status(), e.toString());
            assertTrue(e.isNotExecuted());
            // one attempt's own message: the only provider is not tried again
            assertEquals("/127.0.0.1:" + port + " answered status 70 to UserService.hello: Invalid token! Forbid "
                    + "invoke remote service interface " + UserService.class.getName() + " method hello() from "
                    + "consumer 127.0.0.1 to provider 127.0.0.1", e.getMessage());
            assertFalse(e.getMessage().contains("guess"), e.getMessage());
        }
    }
}
