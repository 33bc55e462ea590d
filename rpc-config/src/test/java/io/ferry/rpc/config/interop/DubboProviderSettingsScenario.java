package io.ferry.rpc.config.interop;

import com.fasterxml.jackson.databind.JsonNode;
import io.ferry.rpc.RpcException;
import io.ferry.rpc.RpcStatus;
import io.ferry.rpc.config.ApplicationConfig;
import io.ferry.rpc.config.Ferry;
import io.ferry.rpc.config.ReferenceConfig;
import io.ferry.rpc.config.RegistryConfig;
import io.ferry.rpc.config.fixtures.AdminClient;
import io.ferry.rpc.config.fixtures.Named;
import io.ferry.rpc.config.fixtures.Answers;
import io.ferry.rpc.config.fixtures.WhoAmI;
import io.ferry.rpc.config.fixtures.ZooKeeperFixture;
import io.ferry.rpc.registry.EmbeddedZooKeeper;
import io.ferry.rpc.registry.RegistryOptions;
import io.ferry.rpc.registry.ServiceUrl;
import org.apache.dubbo.config.MethodConfig;
import org.apache.dubbo.config.ProtocolConfig;
import org.apache.dubbo.config.ServiceConfig;
import org.apache.dubbo.config.bootstrap.DubboBootstrap;
import org.apache.dubbo.rpc.model.FrameworkModel;

import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;


/**
 * Run inside a network namespace whose only interface is loopback (see DubboProviderSettingsInteropTest): two
 * stock Dubbo 3.3.6 providers of one service register in an embedded ZooKeeper with Dubbo's provider-side settings
 * (weights 300 and 100, no warm-up, roundrobin, no retries, a service timeout and a method's), and a Ferry consumer
 * that sets none of them takes them from their URLs. Exits 0 when every check passes.
 */
public final class DubboProviderSettingsScenario {
    public static void main(String[] args) throws Exception {
        EmbeddedZooKeeper zk = EmbeddedZooKeeper.start("127.0.0.1", 0, Duration.ofMillis(500));
        List<FrameworkModel> frameworks = new ArrayList<>();
        List<Named> providers = List.of(new Named("heavy"), new Named("light"));
        Ferry ferry = null;
        try {
            for (Named provider : providers) {
                FrameworkModel framework = new FrameworkModel();
                frameworks.add(framework);
                export(framework, provider, zk.port(), 20880 + frameworks.size()); // the namespace's own ports
            }
            List<ServiceUrl> registered = ZooKeeperFixture.registeredProviders(zk, WhoAmI.class);
            System.out.println("SCENARIO dubbo registered " + registered);
            for (ServiceUrl url : registered) {
                check("150".equals(url.parameter("hold.timeout")) && "roundrobin".equals(url.parameter("loadbalance"))
                        && "0".equals(url.parameter("retries")), "Dubbo writes a method's setting as hold.timeout");
            }

            ferry = Ferry.builder().shutdownHook(false)
                    .application(ApplicationConfig.builder().name("ferry-settings-consumer").qosEnable(true)
                            .qosPort(0).build())
                    .registry(RegistryConfig.of(RegistryOptions.builder().address("127.0.0.1", zk.port())
                            .cacheFile(Files.createTempDirectory("ferry-scenario").resolve("registry.cache"))
                            .build()))
                    .build();
            WhoAmI who = ferry.reference(ReferenceConfig.builder(WhoAmI.class).build()); // sets nothing itself
            balancing(who);
            timeout(who);
            shown(ferry);
            System.out.println("SCENARIO OK");
        } catch (Throwable t) {
            t.printStackTrace(System.out);
            System.out.println("SCENARIO FAILED: " + t);
            System.exit(1);
        } finally {
            providers.forEach(p -> p.release.countDown());
            if (ferry != null) {
                ferry.close();
            }
            frameworks.forEach(FrameworkModel::destroy);
            zk.close();
        }
        System.exit(0);
    }

    private static void export(FrameworkModel framework, Named provider, int zkPort, int port) {
        org.apache.dubbo.config.ApplicationConfig application = DubboLoopback.application("dubbo-" + provider.who());
        application.setRegisterMode("interface");
        ProtocolConfig protocol = new ProtocolConfig("dubbo", port);
        protocol.setSerialization("hessian2");
        ServiceConfig<WhoAmI> service = new ServiceConfig<>();
        service.setInterface(WhoAmI.class);
        service.setRef(provider);
        service.setWeight(provider.who().equals("heavy") ? 300 : 100);
        service.setWarmup(0); // a Ferry consumer keeps the provider's timestamp: it would ramp the weights up
        service.setLoadbalance("roundrobin");
        service.setRetries(0);
        service.setTimeout(5000);
        MethodConfig hold = new MethodConfig();
        hold.setName("hold");
        hold.setTimeout(150);
        service.setMethods(List.of(hold));
        org.apache.dubbo.config.RegistryConfig registry = DubboLoopback.zooKeeper(zkPort);
        DubboBootstrap.newInstance(framework).application(application).registry(registry).protocol(protocol)
                .service(service).start();
    }

    /** The providers' roundrobin, by their weights: exactly 3:1 over 400 calls once both answer. */
    private static void balancing(WhoAmI who) {
        Map<String, Integer> counts = Answers.counted(who, 2, 400, Duration.ofSeconds(30));
        check(counts.equals(Map.of("heavy", 300, "light", 100)), "roundrobin by weights 3:1: " + counts);
        System.out.println("SCENARIO the Dubbo providers' roundrobin and weights: " + counts);
    }

    /** The providers' hold.timeout is the call's one deadline; nothing retries it (their retries=0, too). */
    private static void timeout(WhoAmI who) {
        try {
            who.hold();
            check(false, "hold() times out");
        } catch (RpcException e) {
            check(e.status() == RpcStatus.TIMEOUT, "TIMEOUT: " + e);
            check(e.getMessage().contains("within its timeout of 150 ms"), "the method's timeout: " + e.getMessage());
        }
        System.out.println("SCENARIO the Dubbo providers' method timeout is the call's deadline");
    }

    /** The admin port says where each value came from. */
    private static void shown(Ferry ferry) throws Exception {
        JsonNode reference = new AdminClient().get(ferry, "/services").json().get("references").get(0);
        Map<String, String> rows = new HashMap<>();
        for (JsonNode row : reference.get("settings")) {
            rows.put(row.get("option").asText() + (row.has("method") ? " [" + row.get("method").asText() + "]" : ""),
                    row.get("value").asText() + " " + row.get("from").asText());
        }
        check(rows.get("retries").startsWith("0 provider URLs of 127.0.0.1:"), "retries: " + rows);
        check(rows.get("timeout").startsWith("5000 ms provider URLs of"), "timeout: " + rows);
        check(rows.get("timeout [hold]").startsWith("150 ms provider URLs of"), "timeout [hold]: " + rows);
        check(rows.get("loadBalance").startsWith("roundrobin provider URLs of"), "loadBalance: " + rows);
        Set<Integer> weights = new HashSet<>();
        reference.get("providers").forEach(p -> weights.add(p.get("weight").asInt()));
        check(weights.equals(Set.of(300, 100)), "the providers' weights: " + weights);
        System.out.println("SCENARIO the admin port says: " + rows.get("retries") + "; " + rows.get("timeout [hold]"));
    }

    private static void check(boolean ok, String what) {
        if (!ok) {
            throw new AssertionError("check failed: " + what);
        }
    }
}
