package io.ferry.rpc.spring;

import io.ferry.rpc.GenericService;
import io.ferry.rpc.RpcReference;
import io.ferry.rpc.config.Ferry;
import io.ferry.rpc.config.ProtocolConfig;
import io.ferry.rpc.config.fixtures.ZooKeeperFixture;
import io.ferry.rpc.spring.boot.Hello;
import io.ferry.rpc.spring.boot.HelloService;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.beans.factory.InitializingBean;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.NestedRuntimeException;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@link EnableFerry} in plain Spring contexts configured with Java, over a real ZooKeeper. */
class EnableFerryTest {
    @RegisterExtension
    final ZooKeeperFixture zk = new ZooKeeperFixture();

    @Configuration
    @EnableFerry
    static class Provider {
        @Bean
        HelloService helloService() {
            return new HelloService();
        }
    }

    /**
     * Uses its reference in its init method: the field is set before any init method runs; and calls the same service
     * generically, by its name, as Dubbo's {@code @DubboReference(interfaceName, generic = true)}.
     */
    static class Client implements InitializingBean {
        @RpcReference(version = "1.0")
        Hello hello;
        @RpcReference(version = "1.0", interfaceName = "io.ferry.rpc.spring.boot.Hello")
        GenericService generic;
        String greeting;

        @Override
        public void afterPropertiesSet() {
            greeting = hello.hello("init");
        }
    }

    @Configuration
    @EnableFerry
    static class Consumer {
        @Bean
        Client client() {
            return new Client();
        }
    }

    /** A parameter of a class type: a reference needs an interface. */
    @Configuration
    @EnableFerry
    static class Wrong {
        @Bean
        Object wrong(@RpcReference HelloService notAnInterface) {
            return notAnInterface;
        }
    }

    private AnnotationConfigApplicationContext context(Class<?> config, String application) {
        AnnotationConfigApplicationContext context = new AnnotationConfigApplicationContext();
        context.registerBean("registry", FerryCustomizer.class, () -> builder -> builder
                .application(io.ferry.rpc.config.ApplicationConfig.of(application))
                .registry(zk.registry(application))
                .protocol(ProtocolConfig.builder().host("127.0.0.1").port(0).build()));
        context.register(config);
        context.refresh();
        return context;
    }

    @Test
    void exportedBeansAndReferenceFieldsWorkWithoutBoot() throws Exception {
        try (AnnotationConfigApplicationContext provider = context(Provider.class, "plain-provider")) {
            assertTrue(provider.getBean(Ferry.class).port() > 0);
            assertEquals(1, zk.registeredProviders(Hello.class).size());
            try (AnnotationConfigApplicationContext consumer = context(Consumer.class, "plain-consumer")) {
                Client client = consumer.getBean(Client.class);
                assertEquals("Hello init", client.greeting);
                assertEquals("Hello generic", client.generic.$invoke("hello", new String[] {"java.lang.String"},
                        new Object[] {"generic"}));
            }
            provider.close();
            assertTrue(zk.registeredProviders(Hello.class).isEmpty(), "the context's close unregistered it");
        }
    }

    @Test
    void aReferenceParameterOfAClassTypeIsRefusedNamingIt() {
        NestedRuntimeException e = assertThrows(NestedRuntimeException.class,
                () -> context(Wrong.class, "wrong").close());
        assertEquals("@RpcReference on parameter notAnInterface of " + Wrong.class.getName() + ".wrong(): "
                + HelloService.class.getName() + " (expected: an interface)", e.getMostSpecificCause().getMessage());
    }
}
