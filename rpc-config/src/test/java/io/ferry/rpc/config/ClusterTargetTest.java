package io.ferry.rpc.config;

import io.ferry.rpc.config.fixtures.Named;
import io.ferry.rpc.config.fixtures.WhoAmI;
import io.ferry.rpc.config.internal.ClusterTarget;
import io.ferry.rpc.config.internal.RegistryUrls;
import io.ferry.rpc.registry.ProviderInstance;
import io.ferry.rpc.remoting.ClassAllowList;
import io.ferry.rpc.remoting.ClientOptions;
import io.ferry.rpc.remoting.OutboundCall;
import io.ferry.rpc.remoting.ServiceSchema;
import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The directory and choice of providers, fed provider lists by hand (as the registry would). */
class ClusterTargetTest {
    private static final ServiceSchema WHO = ServiceSchema.of(WhoAmI.class, ClassAllowList.none());

    private static ProviderInstance at(int port) {
        return new ProviderInstance("127.0.0.1", port, WhoAmI.class.getName(), "", "", Set.of("who"), 100, false,
                "test");
    }

    private static OutboundCall who() throws Exception {
        return new OutboundCall(WHO, WHO.method(WhoAmI.class.getMethod("who")), "0.0.0", new Object[0],
                Map.of("path", WhoAmI.class.getName()), TimeUnit.SECONDS.toNanos(5), false);
    }

    private static Ferry provider(String name) {
        Ferry ferry = Ferry.builder().protocol(ProtocolConfig.builder().host("127.0.0.1").port(0).build())
                .shutdownHook(false).build();
        ferry.export(ServiceConfig.builder(WhoAmI.class, new Named(name)).build());
        return ferry;
    }

    @Test
    void anEmptyListDoesNotStopCallsToProvidersThatStillAnswer() throws Exception {
        try (Ferry p = provider("p");
             ClusterTarget cluster = new ClusterTarget(WhoAmI.class.getName(), ClientOptions.defaults(),
                     Duration.ZERO, 15_000)) {
            cluster.providersChanged(List.of(at(p.port())));
            assertEquals("p", cluster.invoke(who(), Runnable::run).get(5, TimeUnit.SECONDS).value());
            cluster.providersChanged(List.of());
            assertEquals(1, cluster.providers().size(), "kept: it still answers");
            assertEquals("p", cluster.invoke(who(), Runnable::run).get(5, TimeUnit.SECONDS).value());
        }
    }

    @Test
    void disabledProvidersAreNotCalled() throws Exception {
        try (Ferry on = provider("on"); Ferry off = provider("off");
             ClusterTarget cluster = new ClusterTarget(WhoAmI.class.getName(), ClientOptions.defaults(),
                     Duration.ZERO, 15_000)) {
            ProviderInstance disabled = new ProviderInstance("127.0.0.1", off.port(), WhoAmI.class.getName(), "",
                    "", Set.of("who"), 100, true, "test");
            cluster.providersChanged(List.of(at(on.port()), disabled));
            assertEquals(1, cluster.providers().size());
            for (int i = 0; i < 10; i++) {
                assertEquals("on", cluster.invoke(who(), Runnable::run).get(5, TimeUnit.SECONDS).value());
            }
        }
    }

    @Test
    void aHalfOpenProviderIsNeverUsedWhileAnotherAnswers() throws Exception {
        try (Ferry good = provider("good");
             ServerSocket neverAccepts = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
             ClusterTarget cluster = new ClusterTarget(WhoAmI.class.getName(), ClientOptions.builder()
                     .connectTimeout(Duration.ofMillis(300)).build(), Duration.ZERO, 15_000)) {
            cluster.providersChanged(List.of(at(good.port()), at(neverAccepts.getLocalPort())));
            for (int i = 0; i < 30; i++) {
                assertEquals("good", cluster.invoke(who(), Runnable::run).get(5, TimeUnit.SECONDS).value());
            }
        }
    }

    @Test
    void aProviderBoundToEveryAddressAdvertisesARealOneNotLoopback() {
        assertEquals("10.1.2.3", RegistryUrls.advertisedHost("10.1.2.3", null), "an explicit address wins");
        assertEquals("127.0.0.1", RegistryUrls.advertisedHost(null, "127.0.0.1"), "else the bound one");
        String derived = RegistryUrls.advertisedHost(null, "0.0.0.0");
        assertFalse(derived.startsWith("127.0.1."), "not the host name's Debian loopback alias: " + derived);
        assertTrue(derived.matches("\\d+\\.\\d+\\.\\d+\\.\\d+"), derived);
    }
}
