package io.ferry.rpc.config.interop;

import io.ferry.rpc.Deadline;
import io.ferry.rpc.EchoService;
import io.ferry.rpc.Invocation;
import io.ferry.rpc.Ticker;
import io.ferry.rpc.RpcContext;
import io.ferry.rpc.RpcException;
import io.ferry.rpc.RpcStatus;
import io.ferry.rpc.config.ApplicationConfig;
import io.ferry.rpc.config.Ferry;
import io.ferry.rpc.config.ReferenceConfig;
import io.ferry.rpc.config.fixtures.User;
import io.ferry.rpc.config.fixtures.UserNotFoundException;
import io.ferry.rpc.config.fixtures.UserService;
import io.ferry.rpc.config.fixtures.UserServiceImpl;
import io.ferry.rpc.ClassAllowList;
import io.ferry.rpc.remoting.ClientOptions;
import io.ferry.rpc.remoting.Client;
import io.ferry.rpc.remoting.ProviderEndpoint;
import org.apache.dubbo.config.ProtocolConfig;
import org.apache.dubbo.config.RegistryConfig;
import org.apache.dubbo.config.ServiceConfig;
import org.apache.dubbo.config.bootstrap.DubboBootstrap;
import org.apache.dubbo.rpc.model.FrameworkModel;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.net.InetSocketAddress;
import java.util.List;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A Ferry consumer calls a stock Apache Dubbo 3.3.6 provider. Dubbo cannot bind a provider to loopback alone, so
 * this one is short-lived and every byte Ferry sends it goes to 127.0.0.1.
 */
class DubboProviderInteropTest {
    /** The Dubbo side reads and writes attachments through Dubbo's own context. */
    static final class DubboSideImpl extends UserServiceImpl {
        @Override
        protected Object incomingAttachment(String key) {
            return org.apache.dubbo.rpc.RpcContext.getServerAttachment().getAttachment(key);
        }

        @Override
        protected void outgoingAttachment(String key, String value) {
            org.apache.dubbo.rpc.RpcContext.getServerContext().setAttachment(key, value);
        }
    }

    /** A method the Dubbo provider does not have, under the same service name. */
    public interface Unknown {
        String notThere(String s);
    }

    private static DubboBootstrap dubbo;
    /** Dubbo's protocol server lives as long as its framework model: one of our own, destroyed after the tests. */
    private static FrameworkModel framework;
    private static Ferry ferry;
    private static UserService users;
    private static int port;

    @BeforeAll
    static void start() {
        DubboLoopback.ignoreOtherInterfaces();
        org.apache.dubbo.config.ApplicationConfig application = DubboLoopback.application("dubbo-provider");
        ProtocolConfig protocol = new ProtocolConfig("dubbo", -1);
        protocol.setSerialization("hessian2");
        protocol.setHost("127.0.0.1");
        ServiceConfig<UserService> service = new ServiceConfig<>();
        service.setInterface(UserService.class);
        service.setRef(new DubboSideImpl());
        framework = new FrameworkModel();
        dubbo = DubboBootstrap.newInstance(framework);
        dubbo.application(application).registry(new RegistryConfig("N/A")).protocol(protocol).service(service).start();
        port = service.getExportedUrls().get(0).getPort();

        ferry = Ferry.builder().application(ApplicationConfig.of("ferry-consumer")).build();
        users = ferry.reference(ReferenceConfig.builder(UserService.class).url("dubbo://127.0.0.1:" + port).build());
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
    void stringsAndPrimitives() {
        assertEquals("hello ferry", users.hello("ferry"));
        assertEquals(9, users.add(4, 5));
        assertEquals(-6L, users.twice(-3L));
        assertTrue(users.isEven(2));
    }

    @Test
    void pojoWithNestedListAndDateAndAListOfThem() throws Exception {
        assertEquals(UserServiceImpl.user(4), users.getUser(4));
        List<User> list = users.listUsers(15);
        assertEquals(UserServiceImpl.user(14), list.get(14));
    }

    @Test
    void nullReturn() {
        assertNull(users.nothing());
    }

    @Test
    void declaredBusinessException() {
        UserNotFoundException e = assertThrows(UserNotFoundException.class, () -> users.getUser(-8));
        assertEquals("no user -8", e.getMessage());
        assertEquals(-8, e.getUserId());
    }

    @Test
    void attachmentsBothWays() {
        RpcContext.current().setAttachment("tenant", "globex");
        assertEquals("globex", users.attachment("tenant"));
        assertEquals("globex", RpcContext.current().responseAttachments().get("echo-tenant"));
    }

    @Test
    void asyncMethod() throws Exception {
        assertEquals("async hello f", users.helloAsync("f").get(5, TimeUnit.SECONDS));
    }

    @Test
    void echoHealthCheck() {
        assertEquals("OK", ((EchoService) users).$echo("OK"));
    }

    @Test
    void errorAnswerFailsOnlyItsCallAndTheConnectionKeepsWorking() throws Exception {
        // two endpoints with the same connection options share one connection: the second call proves it survived
        try (Client client = Client.create(2)) {
            ProviderEndpoint unknown = client.endpoints(Unknown.class, ClassAllowList.none(), ClientOptions.defaults())
                    .open(new InetSocketAddress("127.0.0.1", port), 100, Duration.ZERO);
            ProviderEndpoint known = client.endpoints(UserService.class, ClassAllowList.none(),
                    ClientOptions.defaults()).open(new InetSocketAddress("127.0.0.1", port), 100, Duration.ZERO);
            Invocation bad = new Invocation(UserService.class.getName(), "", "",
                    Unknown.class.getMethod("notThere", String.class), new Object[] {"x"}, Map.of(),
                    Deadline.after(Duration.ofSeconds(3), Ticker.system()), false, Runnable::run);
            ExecutionException e = assertThrows(ExecutionException.class,
                    () -> unknown.invoke(bad).get(5, TimeUnit.SECONDS));
            RpcException rpc = assertInstanceOf(RpcException.class, e.getCause());
            // Dubbo answers an unknown method BAD_REQUEST (40), its message in fastjson2 even to a hessian2 request
            assertEquals(RpcStatus.BAD_REQUEST, rpc.status(), rpc.toString());
            assertTrue(rpc.getMessage().contains("notThere"), rpc.getMessage());

            Invocation good = new Invocation(UserService.class.getName(), "", "",
                    UserService.class.getMethod("hello", String.class), new Object[] {"same connection"}, Map.of(),
                    Deadline.after(Duration.ofSeconds(3), Ticker.system()), false, Runnable::run);
            assertEquals("hello same connection", known.invoke(good).get(5, TimeUnit.SECONDS).value());
            assertEquals(1, known.openConnections());
            assertEquals(1, unknown.openConnections());
            unknown.close();
            known.close();
        }
    }
}
