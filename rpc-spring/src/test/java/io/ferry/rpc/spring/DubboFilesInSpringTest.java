package io.ferry.rpc.spring;

import io.ferry.rpc.GenericService;
import io.ferry.rpc.RpcContext;
import io.ferry.rpc.config.Ferry;
import io.ferry.rpc.config.annotated.Inventory;
import io.ferry.rpc.registry.ServiceUrl;
import io.ferry.rpc.config.fixtures.DemoService;
import io.ferry.rpc.config.fixtures.ZooKeeperFixture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.context.support.GenericXmlApplicationContext;
import org.springframework.core.io.ByteArrayResource;

import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.nio.file.Path;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The same files, Dubbo's documented samples with only the namespace and prefix changed (rpc-config's fixtures),
 * serve real calls in Spring contexts and through Ferry's own bootstrap, where no Spring is needed.
 */
class DubboFilesInSpringTest {
    private static final String PROVIDER = "io/ferry/rpc/config/xml/dubbo-demo-provider.xml";
    private static final String CONSUMER = "io/ferry/rpc/config/xml/dubbo-demo-consumer.xml";

    @RegisterExtension
    final ZooKeeperFixture zk = new ZooKeeperFixture();

    /**
     * The files keep Dubbo's addresses; -D points them at the test's ZooKeeper and a free port, as a deployment
     * would, and has the consumer (check="false" in the file, as in Dubbo's sample) wait for its provider.
     */
    private void pointAtTheTestsZooKeeper() {
        overrides().forEach(System::setProperty);
    }

    private Map<String, String> overrides() {
        return Map.of("ferry.registry.address", "zookeeper://127.0.0.1:" + zk.server().port(),
                "ferry.registry.file", "none", "ferry.protocol.host", "127.0.0.1", "ferry.protocol.port", "0",
                "ferry.consumer.check", "true");
    }

    @AfterEach
    void clearOverrides() {
        overrides().keySet().forEach(System::clearProperty);
    }

    private static GenericXmlApplicationContext spring(String file) {
        return new GenericXmlApplicationContext("classpath:" + file);
    }

    private static Path onDisk(String resource) throws URISyntaxException {
        return Path.of(DubboFilesInSpringTest.class.getClassLoader().getResource(resource).toURI());
    }

    @Test
    void aDubboApplicationsFilesWithMetadataSettingsAnnotationsAndAsyncRunInSpringContexts() throws Exception {
        pointAtTheTestsZooKeeper();
        try (GenericXmlApplicationContext provider = spring("io/ferry/rpc/config/xml/dubbo-app-provider.xml");
             GenericXmlApplicationContext consumer = spring("io/ferry/rpc/config/xml/dubbo-app-consumer.xml")) {
            ServiceUrl demo = zk.registeredProviders(DemoService.class).get(0);
            assertEquals("ann", demo.parameters().get("owner"), "the application's metadata");
            assertEquals("200", demo.parameters().get("weight"), "the service's settings for its consumers");
            assertEquals("0", demo.parameters().get("retries"), "the provider's");
            assertTrue(provider.getBeansOfType(Inventory.class).size() == 1,
                    "<ferry:annotation package>: the @RpcExport class is a bean of the context");

            DemoService greeter = consumer.getBean("demoService", DemoService.class);
            assertNull(greeter.sayHello("world"), "async=\"true\": the call returns at once");
            CompletableFuture<String> hello = RpcContext.current().future();
            assertEquals("Hello world", hello.get(10, TimeUnit.SECONDS));
            assertEquals(5, consumer.getBean(Inventory.class).stock("apple"), "the scanned service answers");
        }
    }

    @Test
    void aGenericReferenceIsAGenericServiceBeanWhoseInterfaceNeedNotBeOnTheClassPath() throws Exception {
        pointAtTheTestsZooKeeper();
        String file = SpringFiles.beans("""
                    <ferry:application name="gateway"/>
                    <ferry:registry address="zookeeper://127.0.0.1:2181"/>
                    <ferry:reference id="demo" interface="io.ferry.rpc.config.fixtures.DemoService" version="1.0.0"
                                     generic="true"/>
                    <ferry:reference id="elsewhere" interface="com.acme.NotHere" generic="true" lazy="true"/>
                """);
        try (GenericXmlApplicationContext provider = spring(PROVIDER);
             GenericXmlApplicationContext gateway = new GenericXmlApplicationContext()) {
            gateway.load(new ByteArrayResource(file.getBytes(StandardCharsets.UTF_8), "gateway.xml"));
            gateway.refresh();
            assertEquals(2, gateway.getBeansOfType(GenericService.class).size());
            GenericService demo = gateway.getBean("demo", GenericService.class);
            assertEquals("Hello maps", demo.$invoke("sayHello", new String[] {"java.lang.String"},
                    new Object[] {"maps"}));
        }
    }

    @Test
    void aSpringProviderServesAConsumerOfFerrysOwnBootstrap() throws Exception {
        pointAtTheTestsZooKeeper();
        try (GenericXmlApplicationContext provider = spring(PROVIDER);
             Ferry consumer = Ferry.fromXml(onDisk(CONSUMER))) {
            assertEquals("Hello both", consumer.reference("demoService", DemoService.class).sayHello("both"));
        }
    }

    @Test
    void aProviderOfFerrysOwnBootstrapServesASpringConsumer() throws Exception {
        pointAtTheTestsZooKeeper();
        try (Ferry provider = Ferry.fromXml(onDisk(PROVIDER));
             GenericXmlApplicationContext consumer = spring(CONSUMER)) {
            assertEquals("Hello again", consumer.getBean("demoService", DemoService.class).sayHello("again"));
        }
    }
}
