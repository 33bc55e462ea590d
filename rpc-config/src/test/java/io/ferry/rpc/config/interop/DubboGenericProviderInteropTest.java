package io.ferry.rpc.config.interop;

import io.ferry.rpc.GenericException;
import io.ferry.rpc.GenericService;
import io.ferry.rpc.RpcException;
import io.ferry.rpc.RpcStatus;
import io.ferry.rpc.config.ApplicationConfig;
import io.ferry.rpc.config.Ferry;
import io.ferry.rpc.config.ReferenceConfig;
import io.ferry.rpc.config.fixtures.User;
import io.ferry.rpc.config.fixtures.UserNotFoundException;
import io.ferry.rpc.config.fixtures.UserService;
import org.apache.dubbo.config.ProtocolConfig;
import org.apache.dubbo.config.RegistryConfig;
import org.apache.dubbo.config.ServiceConfig;
import org.apache.dubbo.config.bootstrap.DubboBootstrap;
import org.apache.dubbo.rpc.model.FrameworkModel;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A Ferry generic reference calls a stock Apache Dubbo 3.3.6 provider. Dubbo cannot bind a provider to loopback
 * alone, so this one is short-lived and every byte Ferry sends it goes to 127.0.0.1.
 */
class DubboGenericProviderInteropTest {
    private static final String[] LONG = {"long"};
    private static final String[] STRING = {"java.lang.String"};
    private static DubboBootstrap dubbo;
    private static FrameworkModel framework;
    private static ServiceConfig<UserService> service;
    private static Ferry ferry;
    private static GenericService users;

    @BeforeAll
    static void start() {
        DubboLoopback.ignoreOtherInterfaces();
        ProtocolConfig protocol = new ProtocolConfig("dubbo", -1);
        protocol.setSerialization("hessian2");
        protocol.setHost("127.0.0.1");
        service = new ServiceConfig<>();
        service.setInterface(UserService.class);
        service.setRef(new DubboProviderInteropTest.DubboSideImpl());
        framework = new FrameworkModel();
        dubbo = DubboBootstrap.newInstance(framework);
        dubbo.application(DubboLoopback.application("dubbo-provider")).registry(new RegistryConfig("N/A"))
                .protocol(protocol).service(service).start();
        int port = service.getExportedUrls().get(0).getPort();

        ferry = Ferry.builder().application(ApplicationConfig.of("ferry-generic-consumer")).build();
        users = ferry.reference(ReferenceConfig.generic(UserService.class.getName())
                .url("dubbo://127.0.0.1:" + port).retries(0).build());
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

    @Test
    void dubboWritesGenericFalseForAPlainServiceAsFerryDoes() {
        assertEquals("false", service.getExportedUrls().get(0).getParameter("generic"));
    }

    @Test
    void stringsAndPrimitives() {
        assertEquals("hello ferry", users.$invoke("hello", STRING, new Object[] {"ferry"}));
        assertEquals(9, users.$invoke("add", new String[] {"int", "int"}, new Object[] {4, 5}));
        assertEquals(-6L, users.$invoke("twice", LONG, new Object[] {-3L}));
        assertNull(users.$invoke("nothing", new String[0], new Object[0]));
    }

    @Test
    @SuppressWarnings("unchecked")
    void pojosComeBackAsDubbosMapsAndGoInAsThem() {
        Map<String, Object> user = (Map<String, Object>) users.$invoke("getUser", LONG, new Object[] {4L});
        assertEquals(User.class.getName(), user.get("class"));
        assertEquals("user-4", user.get("name"));
        assertEquals(4L, user.get("id"));

        Map<String, Object> given = new HashMap<>();
        given.put("class", User.class.getName());
        given.put("name", "from ferry");
        assertEquals(User.class.getName(), users.$invoke("describe", new String[] {"java.lang.Object"},
                new Object[] {given}));
    }

    @Test
    @SuppressWarnings("unchecked")
    void collections() {
        List<Map<String, Object>> list = (List<Map<String, Object>>) users.$invoke("listUsers",
                new String[] {"int"}, new Object[] {15});
        assertEquals(15, list.size());
        assertEquals("user-14", list.get(14).get("name"));
        assertEquals(List.of("a", "b14"), list.get(14).get("tags"));
    }

    @Test
    void exceptionsArriveAsGenericExceptionNamingTheServicesException() {
        // Dubbo sends its own GenericException, a class this side has not: read as the service's class and message
        GenericException e = assertThrows(GenericException.class,
                () -> users.$invoke("getUser", LONG, new Object[] {-8L}));
        assertEquals(UserNotFoundException.class.getName(), e.getExceptionClass());
        assertEquals("no user -8", e.getExceptionMessage());
    }

    @Test
    void aMissingMethodIsMethodNotFoundNotRun() {
        RpcException e = assertThrows(RpcException.class,
                () -> users.$invoke("notThere", STRING, new Object[] {"x"}));
        assertEquals(RpcStatus.METHOD_NOT_FOUND, e.status());
        assertTrue(e.isNotExecuted());
        assertTrue(e.getMessage().contains("No such method notThere in class interface " + UserService.class.getName()),
                e.getMessage());
    }

    @Test
    void invokeAsync() throws Exception {
        assertEquals("async hello f", users.$invokeAsync("helloAsync", STRING, new Object[] {"f"})
                .get(5, TimeUnit.SECONDS));
    }
}
