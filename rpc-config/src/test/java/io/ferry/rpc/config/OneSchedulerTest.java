package io.ferry.rpc.config;

import io.ferry.rpc.config.fixtures.Named;
import io.ferry.rpc.config.fixtures.WhoAmI;
import io.ferry.rpc.config.fixtures.ZooKeeperFixture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

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

    private static Map<String, Long> countByName(List<String> names) {
        return names.stream().collect(Collectors.groupingBy(name -> name, TreeMap::new, Collectors.counting()));
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

        assertTrue(withOne.contains("ferry-scheduler"), withOne.toString());
        Map<String, Long> before = countByName(withOne);
        Map<String, Long> more = new TreeMap<>();
        countByName(withHundred).forEach((name, count) -> {
            if (count > before.getOrDefault(name, 0L)) { // by name and number: threads of one kind share a name
                more.put(name, count - before.getOrDefault(name, 0L));
            }
        });
        assertEquals(Map.of(), more, "threads started by the 99 references after the first (threads that other"
                + " tests left stopping may end meanwhile; they are not counted)");
    }
}
