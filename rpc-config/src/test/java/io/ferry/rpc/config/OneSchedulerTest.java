package io.ferry.rpc.config;

import io.ferry.rpc.config.fixtures.Named;
import io.ferry.rpc.config.fixtures.WhoAmI;
import io.ferry.rpc.config.fixtures.ZooKeeperFixture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A Ferry's delayed work (registry operations, providers draining after they leave, failback retries) runs on its one
 * scheduler thread: references to registry services start no threads of their own.
 */
class OneSchedulerTest {
    @RegisterExtension
    final ZooKeeperFixture zk = new ZooKeeperFixture();

    private static List<String> ferryThreads() {
        return Thread.getAllStackTraces().keySet().stream().map(Thread::getName)
                .filter(name -> name.startsWith("ferry-")).sorted().toList();
    }

    @Test
    void aHundredReferencesToRegistryServicesRunNoMoreFerryThreadsThanOne() {
        Ferry provider = zk.track(Ferry.builder().shutdownHook(false).application(ApplicationConfig.of("provider"))
                .protocol(ProtocolConfig.builder().host("127.0.0.1").port(0).build())
                .registry(zk.registry("provider.cache")).build());
        provider.export(ServiceConfig.builder(WhoAmI.class, new Named("a")).build());
        Ferry consumer = zk.track(Ferry.builder().shutdownHook(false).application(ApplicationConfig.of("consumer"))
                .registry(zk.registry("consumer.cache")).build());
        ReferenceConfig<WhoAmI> reference = ReferenceConfig.builder(WhoAmI.class).check(true).build();

        consumer.reference(reference); // check: returns once the provider is connected and ready
        List<String> withOne = ferryThreads();
        for (int i = 1; i < 100; i++) {
            consumer.reference(reference);
        }
        List<String> withHundred = ferryThreads();

        assertTrue(withOne.stream().anyMatch(name -> name.equals("ferry-scheduler")), withOne.toString());
        assertEquals(withOne.size(), withHundred.size(), "threads with one reference " + withOne
                + ", with a hundred " + withHundred);
    }
}
