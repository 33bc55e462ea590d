package io.ferry.rpc.config;

import io.ferry.rpc.RpcContext;
import io.ferry.rpc.RpcMethod;
import io.ferry.rpc.RpcReference;
import io.ferry.rpc.RpcService;
import io.ferry.rpc.config.fixtures.UserService;
import io.ferry.rpc.config.fixtures.UserServiceImpl;
import io.ferry.rpc.remoting.SocketOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A wrong value fails when the config is built, with a message that names the option and the value. */
class ConfigValidationTest {
    private static void rejects(String expectedMessage, Executable build) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, build);
        assertEquals(expectedMessage, e.getMessage());
    }

    @Test
    void protocolOptions() {
        rejects("port: 70000 (expected: 0..65535)", () -> ProtocolConfig.builder().port(70000));
        rejects("ioThreads: 0 (expected: 1..1024)", () -> ProtocolConfig.builder().ioThreads(0));
        rejects("threads: 0 (expected: 1..10000)", () -> ProtocolConfig.builder().threads(0));
        rejects("queues: -1 (expected: >= 0)", () -> ProtocolConfig.builder().queues(-1));
        rejects("backlog: 0 (expected: >= 1)", () -> ProtocolConfig.builder().backlog(0));
        rejects("payloadBytes: 10 (expected: >= 1024)", () -> ProtocolConfig.builder().payloadBytes(10));
    }

    @Test
    void socketOptions() {
        rejects("sendBufferBytes: -1 (expected: >= 0)", () -> SocketOptions.builder().sendBufferBytes(-1));
        rejects("writeBufferHighWaterMark: 10 (expected: >= writeBufferLowWaterMark 20)",
                () -> SocketOptions.builder().writeBufferWaterMarks(20, 10));
    }

    @Test
    void consumerOptions() {
        rejects("timeout: -5ms (expected: > 0)", () -> ConsumerConfig.builder().timeout(Duration.ofMillis(-5)));
        rejects("connections: -1 (expected: 0..1024)", () -> ConsumerConfig.builder().connections(-1));
        rejects("connectTimeout: 0ms (expected: > 0)", () -> ConsumerConfig.builder().connectTimeout(Duration.ZERO));
    }

    @Test
    void referenceOptions() {
        rejects("url: http://x:1 (expected: dubbo://host:port)",
                () -> ReferenceConfig.builder(UserService.class).url("http://x:1").build());
        rejects("url: none for " + UserService.class.getName() + " (expected: a url, or a registry on the Ferry "
                + "builder)", () -> {
                    try (Ferry ferry = Ferry.builder().build()) {
                        ferry.reference(ReferenceConfig.builder(UserService.class).build());
                    }
                });
        rejects("method: nope (expected: a method of " + UserService.class.getName() + ")",
                () -> ReferenceConfig.builder(UserService.class).url("dubbo://127.0.0.1:1")
                        .method(MethodConfig.timeout("nope", Duration.ofSeconds(1))).build());
        rejects("interface: " + UserServiceImpl.class.getName() + " (expected: an interface)",
                () -> ReferenceConfig.builder(UserServiceImpl.class).url("dubbo://127.0.0.1:1").build());
    }

    @Test
    void onewayOnlyOnVoidMethods() {
        try (Ferry ferry = Ferry.builder().consumer(ConsumerConfig.builder().lazy(true).build()).build()) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ferry.reference(
                    ReferenceConfig.builder(UserService.class).url("dubbo://127.0.0.1:1")
                            .method(MethodConfig.oneway("hello")).build()));
            assertTrue(e.getMessage().startsWith("oneway: "), e.getMessage());
            assertTrue(e.getMessage().endsWith("(expected: a void method)"), e.getMessage());
        }
    }

    @Test
    void serviceOptions() {
        @SuppressWarnings({"unchecked", "rawtypes"})
        Executable wrongImplementation = () -> ServiceConfig.builder((Class) UserService.class, "not a service").build();
        rejects("implementation: java.lang.String (expected: an implementation of " + UserService.class.getName()
                + ")", wrongImplementation);
        rejects("application.name: ' ' (expected: a non-blank name)", () -> ApplicationConfig.of(" "));
        rejects("method hello oneway: true (expected: unset; one-way is the consumer's choice)",
                () -> ServiceConfig.builder(UserService.class, new UserServiceImpl())
                        .method(MethodConfig.oneway("hello")).build());
        rejects("timeout: 0ms (expected: > 0)",
                () -> ServiceConfig.builder(UserService.class, new UserServiceImpl()).timeout(Duration.ZERO));
    }

    @Test
    void applicationOptions() {
        rejects("qosPort: 70000 (expected: 0..65535)", () -> ApplicationConfig.builder().qosPort(70000));
        rejects("qosPort: -1 (expected: 0..65535)", () -> ApplicationConfig.builder().qosPort(-1));
        ApplicationConfig defaults = ApplicationConfig.of("a");
        assertEquals(false, defaults.qosEnable());
        assertEquals(22222, defaults.qosPort());
        assertEquals(false, defaults.qosAcceptForeignIp());
    }

    @Test
    void serviceTimeoutsComeFromTheBuilderThenTheAnnotations() {
        ServiceConfig<io.ferry.rpc.config.annotated.Inventory> inventory = ServiceConfig.builder(
                io.ferry.rpc.config.annotated.Inventory.class, new io.ferry.rpc.config.annotated.InventoryImpl())
                .method(MethodConfig.timeout("stock", Duration.ofMillis(50))).build();
        assertEquals(Duration.ofMillis(3000), inventory.timeout(), "@RpcService(timeoutMillis = 3000)");
        assertEquals(Duration.ofMillis(100), inventory.methodTimeouts().get("slowStock"), "@RpcMethod");
        assertEquals(Duration.ofMillis(50), inventory.methodTimeouts().get("stock"), "MethodConfig");
    }

    /** Annotations that set what a builder would refuse. */
    @RpcService(timeoutMillis = -5)
    public interface NegativeServiceTimeout {
        String hello(String name);
    }

    public interface NegativeMethodTimeout {
        @RpcMethod(timeoutMillis = -1)
        String hello(String name);
    }

    static final class NegativeReference {
        @RpcReference(url = "dubbo://127.0.0.1:1", connections = -2)
        NegativeMethodTimeout greeter;
    }

    @Test
    void annotationsAreCheckedLikeBuildersAndSayWhere() {
        rejects("@RpcService(timeoutMillis) on " + NegativeServiceTimeout.class.getName()
                        + ": timeout: -5ms (expected: > 0)",
                () -> ReferenceConfig.builder(NegativeServiceTimeout.class).url("dubbo://127.0.0.1:1").build());
        rejects("@RpcService(timeoutMillis) on " + NegativeServiceTimeout.class.getName()
                        + ": timeout: -5ms (expected: > 0)",
                () -> ServiceConfig.builder(NegativeServiceTimeout.class, name -> name).build());
        rejects("@RpcMethod(timeoutMillis) on " + NegativeMethodTimeout.class.getName()
                        + ".hello: timeout: -1ms (expected: > 0)",
                () -> ServiceConfig.builder(NegativeMethodTimeout.class, name -> name).build());
        try (Ferry ferry = Ferry.builder().consumer(ConsumerConfig.builder().lazy(true).build()).build()) {
            rejects("@RpcMethod(timeoutMillis) on " + NegativeMethodTimeout.class.getName()
                            + ".hello: timeout: -1ms (expected: > 0)",
                    () -> ferry.reference(ReferenceConfig.builder(NegativeMethodTimeout.class)
                            .url("dubbo://127.0.0.1:1").build()));
            rejects("@RpcReference(connections) on " + NegativeReference.class.getName()
                            + ".greeter: connections: -2 (expected: 0..1024)",
                    () -> ferry.inject(new NegativeReference(), null));
        }
    }

    @Test
    void aPerCallTimeoutNamesItsValueInMilliseconds() {
        rejects("timeout: -1ms (expected: > 0)", () -> RpcContext.current().setTimeout(Duration.ofMillis(-1)));
    }
}
