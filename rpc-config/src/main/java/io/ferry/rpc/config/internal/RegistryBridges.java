package io.ferry.rpc.config.internal;

import io.ferry.rpc.Ticker;
import io.ferry.rpc.config.OutlierEjection;
import io.ferry.rpc.config.RegistryConfig;
import io.ferry.rpc.config.internal.cluster.ClusterDirectory;
import io.ferry.rpc.config.internal.cluster.RegistryDirectory;
import io.ferry.rpc.registry.Registry;
import io.ferry.rpc.registry.ServiceKey;
import io.ferry.rpc.registry.ZookeeperRegistry;
import io.ferry.rpc.remoting.EndpointFactory;

import java.time.Duration;

/** The registry bridge over ZooKeeper: the only class of the bootstrap's path that needs rpc-registry. */
public final class RegistryBridges implements RegistryBridge {
    private final Registry registry;

    private RegistryBridges(Registry registry) {
        this.registry = registry;
    }

    /**
     * Connects to the configured registry. A RegistryConfig exists only where rpc-registry is on the class path
     * (RegistryConfig.of says so otherwise), so this class loads only then.
     */
    public static RegistryBridge open(RegistryConfig config, String application) {
        return new RegistryBridges(new ZookeeperRegistry(config.options().forApplication(application)));
    }

    @Override
    public void registerProvider(Class<?> service, String advertisedHost, String boundHost, int port,
                                 String version, String group, Duration timeout, Duration heartbeat,
                                 String application) {
        registry.register(RegistryUrls.provider(service, RegistryUrls.advertisedHost(advertisedHost, boundHost), port,
                version, group, timeout, heartbeat, application));
    }

    @Override
    public ClusterDirectory subscribe(Class<?> service, String version, String group, EndpointFactory endpoints,
                                      Duration connectSpread, long drainMillis, Ticker ticker,
                                      OutlierEjection ejection, String application) {
        RegistryDirectory directory = new RegistryDirectory(service.getName(), endpoints, connectSpread, drainMillis,
                ticker, ejection, registry::describe);
        registry.subscribe(new ServiceKey(service.getName(), version, group), directory);
        registry.register(RegistryUrls.consumer(service, version, group, application));
        return directory;
    }

    @Override
    public void close() {
        registry.close();
    }
}
