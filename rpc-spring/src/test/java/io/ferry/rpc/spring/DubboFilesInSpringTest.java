package io.ferry.rpc.spring;

import io.ferry.rpc.config.Ferry;
import io.ferry.rpc.config.fixtures.DemoService;
import io.ferry.rpc.config.fixtures.ZooKeeperFixture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.context.support.GenericXmlApplicationContext;

import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

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
