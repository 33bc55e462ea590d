package io.ferry.rpc.config;

import io.ferry.rpc.config.fixtures.Answers;
import io.ferry.rpc.config.fixtures.ChildProviders;
import io.ferry.rpc.config.fixtures.Named;
import io.ferry.rpc.config.fixtures.WhoAmI;
import io.ferry.rpc.registry.RegistryOptions;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The embedded registry ({@code ?embedded=true}) across processes: the process hosting it is killed, another process
 * configured with it takes over hosting, registrations come back, a provider started afterwards can register, and
 * close() stays quick. Child JVMs on 127.0.0.1, on a free test port (the opt-in takes any loopback port) instead of
 * 2181, which other processes of this machine may use.
 */
class EmbeddedRegistryTakeoverTest {
    @RegisterExtension
    final ChildProviders providers = new ChildProviders();

    @Test
    void anotherProcessTakesOverWhenTheHostGoesAway() throws Exception {
        int zkPort;
        try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            zkPort = probe.getLocalPort(); // the embedded server's role needs a fixed, agreed port
        }
        ChildProviders.Child host = providers.start(zkPort, "a", 0, true); // nothing listens: it hosts ZooKeeper

        RegistryConfig registry = RegistryConfig.of(RegistryOptions.parse("zookeeper://127.0.0.1:" + zkPort
                + "?embedded=true").noCacheFile().connectionTimeout(Duration.ofSeconds(2)).build());
        Ferry survivor = Ferry.builder().registry(registry).shutdownHook(false)
                .protocol(ProtocolConfig.builder().host("127.0.0.1").port(0).build()).build();
        try {
            survivor.export(ServiceConfig.builder(WhoAmI.class, new Named("b")).build());
            WhoAmI who = survivor.reference(ReferenceConfig.builder(WhoAmI.class).build());
            assertTrue(Answers.from(who, Set.of("a", "b"), Duration.ofSeconds(30)), "both providers through the first host's ZooKeeper");

            providers.kill(host);
            assertTrue(Answers.from(who, Set.of("b"), Duration.ofSeconds(30)), "the survivor answers");
            assertTrue(listensWithin(zkPort, Duration.ofSeconds(15)), "the survivor hosts ZooKeeper now");
            providers.start(zkPort, "c", 0, true); // finds it listening: registers there
            assertTrue(Answers.from(who, Set.of("b", "c"), Duration.ofSeconds(30)),
                    "a provider started after the host died registered: the survivor took over hosting");
        } finally {
            long start = System.nanoTime();
            survivor.close();
            long took = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            assertTrue(took < 2000, "close took " + took + " ms");
        }
    }

    /** Whether something accepts connections on {@code port} within {@code limit}, trying every 100 ms. */
    private static boolean listensWithin(int port, Duration limit) {
        try {
            await("ZooKeeper listening on " + port).atMost(limit).pollInterval(Duration.ofMillis(100))
                    .until(() -> accepts(port));
            return true;
        } catch (ConditionTimeoutException notYet) {
            return false;
        }
    }

    private static boolean accepts(int port) {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 200);
            return true;
        } catch (IOException notYet) {
            return false;
        }
    }
}
