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
import org.apache.dubbo.rpc.RpcContext;
import org.apache.dubbo.rpc.service.EchoService;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A stock Apache Dubbo 3.3.6 consumer calls a Ferry provider on 127.0.0.1. */
class DubboConsumerInteropTest {
    private static final UserServiceImpl IMPL = new UserServiceImpl();
    private static Ferry ferry;
    private static DubboBootstrap dubbo;
    private static UserService users;

    @BeforeAll
    static void start() {
        DubboLoopback.ignoreOtherInterfaces();
        ferry = Ferry.builder().application(ApplicationConfig.of("ferry-provider"))
                .protocol(ProtocolConfig.builder().host("127.0.0.1").port(0).build()).build();
        int port = ferry.export(ServiceConfig.builder(UserService.class, IMPL).build());

        org.apache.dubbo.config.ApplicationConfig application = DubboLoopback.application("dubbo-consumer");
        ReferenceConfig<UserService> reference = new ReferenceConfig<>();
        reference.setInterface(UserService.class);
        reference.setUrl("dubbo://127.0.0.1:" + port + "?serialization=hessian2");
        reference.setTimeout(5000);
        reference.setRetries(0);
        dubbo = DubboBootstrap.newInstance();
        dubbo.application(application).reference(reference).start();
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
        assertEquals("hello dubbo", users.hello("dubbo"));
        assertEquals(7, users.add(3, 4));
        assertEquals(1L << 40, users.twice(1L << 39));
        assertTrue(users.isEven(10));
    }

    @Test
    void pojoWithNestedListAndDateAndAListOfThem() throws Exception {
        assertEquals(UserServiceImpl.user(3), users.getUser(3));
        List<User> list = users.listUsers(15);
        assertEquals(15, list.size());
        assertEquals(UserServiceImpl.user(9), list.get(9));
    }

    @Test
    void nullReturn() {
        assertNull(users.nothing());
    }

    @Test
    void declaredBusinessException() {
        UserNotFoundException e = assertThrows(UserNotFoundException.class, () -> users.getUser(-5));
        assertEquals("no user -5", e.getMessage());
        assertEquals(-5, e.getUserId());
        assertTrue(e.getStackTrace().length > 0);
    }

    @Test
    void attachmentsBothWays() {
        RpcContext.getClientAttachment().setAttachment("tenant", "acme");
        assertEquals("acme", users.attachment("tenant"));
        assertEquals("acme", RpcContext.getServerContext().getAttachment("echo-tenant"));
    }

    @Test
    void asyncMethod() throws Exception {
        assertEquals("async hello d", users.helloAsync("d").get(5, TimeUnit.SECONDS));
    }

    @Test
    void echoHealthCheck() {
        assertEquals("OK", ((EchoService) users).$echo("OK"));
    }
}
