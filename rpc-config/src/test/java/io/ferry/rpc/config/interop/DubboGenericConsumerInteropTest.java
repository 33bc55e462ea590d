package io.ferry.rpc.config.interop;

import io.ferry.rpc.config.ApplicationConfig;
import io.ferry.rpc.config.Ferry;
import io.ferry.rpc.config.ProtocolConfig;
import io.ferry.rpc.config.ServiceConfig;
import io.ferry.rpc.config.fixtures.User;
import io.ferry.rpc.config.fixtures.UserNotFoundException;
import io.ferry.rpc.config.fixtures.UserService;
import io.ferry.rpc.config.fixtures.UserServiceImpl;
import org.apache.dubbo.config.ReferenceConfig;
import org.apache.dubbo.config.bootstrap.DubboBootstrap;
import org.apache.dubbo.rpc.RpcException;
import org.apache.dubbo.rpc.service.GenericService;
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

/** A stock Apache Dubbo 3.3.6 generic consumer ({@code generic="true"}) calls a Ferry provider on 127.0.0.1. */
class DubboGenericConsumerInteropTest {
    private static final String[] LONG = {"long"};
    private static final String[] STRING = {"java.lang.String"};
    private static final UserServiceImpl IMPL = new UserServiceImpl();
    private static Ferry ferry;
    private static DubboBootstrap dubbo;
    private static GenericService users;

    @BeforeAll
    static void start() {
        DubboLoopback.ignoreOtherInterfaces();
        ferry = Ferry.builder().application(ApplicationConfig.of("ferry-provider"))
                .protocol(ProtocolConfig.builder().host("127.0.0.1").port(0).build()).build();
        int port = ferry.export(ServiceConfig.builder(UserService.class, IMPL).build());

        ReferenceConfig<GenericService> reference = new ReferenceConfig<>();
        reference.setInterface(UserService.class.getName()); // by name, as a gateway has it
        reference.setGeneric("true");
        reference.setUrl("dubbo://127.0.0.1:" + port + "?serialization=hessian2");
        reference.setTimeout(5000);
        reference.setRetries(0);
        dubbo = DubboBootstrap.newInstance();
        dubbo.application(DubboLoopback.application("dubbo-generic-consumer")).reference(reference).start();
        users = reference.get();
    }

    @AfterAll
    static void stop() {
        IMPL.release.countDown();
        if (dubbo != null) {
            dubbo.destroy();
        }
        if (ferry != null) {
            ferry.close();
        }
    }

    @Test
    void stringsAndPrimitives() {
        assertEquals("hello dubbo", users.$invoke("hello", STRING, new Object[] {"dubbo"}));
        assertEquals(7, users.$invoke("add", new String[] {"int", "int"}, new Object[] {3, 4}));
        assertEquals(true, users.$invoke("isEven", new String[] {"int"}, new Object[] {10}));
        assertNull(users.$invoke("nothing", new String[0], new Object[0]));
    }

    @Test
    @SuppressWarnings("unchecked")
    void pojosComeBackAsDubbosMapsAndGoInAsThem() {
        Map<String, Object> user = (Map<String, Object>) users.$invoke("getUser", LONG, new Object[] {3L});
        assertEquals(User.class.getName(), user.get("class"));
        assertEquals("user-3", user.get("name"));
        assertEquals(3L, user.get("id"));
        assertEquals(UserServiceImpl.CREATED, user.get("created"));

        Map<String, Object> given = new HashMap<>();
        given.put("class", User.class.getName());
        given.put("name", "from dubbo");
        assertEquals(User.class.getName(), users.$invoke("describe", new String[] {"java.lang.Object"},
                new Object[] {given}));
    }

    @Test
    @SuppressWarnings("unchecked")
    void collections() {
        List<Map<String, Object>> list = (List<Map<String, Object>>) users.$invoke("listUsers",
                new String[] {"int"}, new Object[] {15});
        assertEquals(15, list.size());
        assertEquals("user-9", list.get(9).get("name"));
        assertEquals(List.of("a", "b9"), list.get(9).get("tags"));
    }

    @Test
    void exceptionsArriveAsDubbosGenericExceptionAsFromADubboProvider() {
        // what a Dubbo 3.3.6 provider (the dubbo jar, with Dubbo 2's compatible API) sends a generic caller
        com.alibaba.dubbo.rpc.service.GenericException e = assertThrows(
                com.alibaba.dubbo.rpc.service.GenericException.class,
                () -> users.$invoke("getUser", LONG, new Object[] {-5L}));
        assertEquals(UserNotFoundException.class.getName(), e.getExceptionClass());
        assertEquals("no user -5", e.getExceptionMessage());
        assertTrue(e.getStackTrace().length > 0);
    }

    @Test
    void aMissingMethodIsAnRpcExceptionSayingSoAsDubbosIs() {
        RpcException e = assertThrows(RpcException.class,
                () -> users.$invoke("notThere", STRING, new Object[] {"x"}));
        assertTrue(e.getMessage().contains("No such method notThere in class interface " + UserService.class.getName()),
                e.getMessage());
    }

    @Test
    void aClassTheProviderDoesNotAllowIsRefused() {
        Map<String, Object> gadget = Map.of("class", "java.lang.ProcessBuilder", "command", List.of("true"));
        RpcException e = assertThrows(RpcException.class,
                () -> users.$invoke("describe", new String[] {"java.lang.Object"}, new Object[] {gadget}));
        assertTrue(e.getMessage().contains("class not allowed for deserialization: java.lang.ProcessBuilder"),
                e.getMessage());
    }

    @Test
    void invokeAsync() throws Exception {
        assertEquals("async hello d", users.$invokeAsync("helloAsync", STRING, new Object[] {"d"})
                .get(5, TimeUnit.SECONDS));
    }
}
