package io.ferry.rpc.config.interop;

import io.ferry.rpc.config.MethodConfig;
import io.ferry.rpc.config.ServiceConfig;
import io.ferry.rpc.config.fixtures.Named;
import io.ferry.rpc.config.fixtures.Answers;
import io.ferry.rpc.config.fixtures.WhoAmI;
import org.apache.dubbo.config.ReferenceConfig;
import org.apache.dubbo.rpc.RpcException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A stock Dubbo 3.3.6 consumer that sets nothing itself takes two Ferry providers' settings from their registry
 * URLs: their {@code loadbalance}, their weights, a method's {@code timeout}; not their {@code retries}, which a Dubbo
 * consumer reads from its own configuration only.
 */
class DubboConsumerProviderSettingsInteropTest {
    @RegisterExtension
    static final DubboZooKeeperPeers PEERS = new DubboZooKeeperPeers();
    private static final Named HEAVY = new Named("heavy");
    private static final Named LIGHT = new Named("light");
    private static WhoAmI who;

    @BeforeAll
    static void start() {
        for (Named provider : new Named[] {HEAVY, LIGHT}) {
            // warmup 0: a Dubbo consumer that keeps the providers' timestamp would ramp their weights up otherwise
            PEERS.ferryProvider(ServiceConfig.builder(WhoAmI.class, provider).loadBalance("roundrobin").retries(0)
                    .weight(provider == HEAVY ? 300 : 100).warmup(Duration.ZERO)
                    .method(MethodConfig.builder("hold").timeout(Duration.ofMillis(150)).build()).build(), b -> b);
        }
        ReferenceConfig<WhoAmI> reference = new ReferenceConfig<>();
        reference.setInterface(WhoAmI.class); // no timeout, retries or loadbalance of its own
        PEERS.dubbo().application(DubboLoopback.application("dubbo-settings-consumer"))
                .registry(DubboLoopback.zooKeeper(PEERS.zooKeeper().port())).reference(reference).start();
        who = reference.get();
    }

    @AfterAll
    static void release() {
        HEAVY.release.countDown();
        LIGHT.release.countDown();
    }

    @Test
    void theDubboConsumerBalancesByTheFerryProvidersRoundRobinAndWeights() {
        Map<String, Integer> counts = Answers.counted(who, 2, 400, Duration.ofSeconds(15));
        assertEquals(Map.of("heavy", 300, "light", 100), counts, "Dubbo's smooth round robin over weights 3:1");
    }

    @Test
    void theDubboConsumerTakesTheFerryProvidersMethodTimeout() {
        RpcException timedOut = assertThrows(RpcException.class, who::hold);
        assertTrue(timedOut.isTimeout(), timedOut.toString());
        assertTrue(timedOut.getMessage().contains("Timeout after 150ms"), "the provider's hold.timeout: "
                + timedOut.getMessage());
        assertTrue(timedOut.getMessage().contains("Tried 3 times"), "but its own retries (2), not the providers' "
                + "retries=0: a Dubbo 3.3 consumer reads retries from its own URL only: " + timedOut.getMessage());
    }
}
