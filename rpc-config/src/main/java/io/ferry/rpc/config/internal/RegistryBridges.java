package io.ferry.rpc.config.internal;

import io.ferry.rpc.config.RegistryConfig;
import io.ferry.rpc.config.internal.cluster.ClusterDirectory;
import io.ferry.rpc.config.internal.cluster.RegistryDirectory;
import io.ferry.rpc.registry.Registry;
import io.ferry.rpc.registry.ServiceKey;
import io.ferry.rpc.registry.ZookeeperRegistry;

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
    public void registerProvider(Registration r) {
        registry.register(RegistryUrls.provider(r.service(), RegistryUrls.advertisedHost(r.advertisedHost(),
                r.boundHost()), r.port(), r.version(), r.group(), r.timeout(), r.heartbeat(), r.application()));
    }

    @Override
    public ClusterDirectory subscribe(Subscription s) {
        RegistryDirectory directory = new RegistryDirectory(s.service().getName(), s.endpoints(), s.connectSpread(),
                s.drainMillis(), s.ticker(), s.ejection(), registry::describe);
        registry.subscribe(new ServiceKey(s.service().getName(), s.version(), s.group()), directory);
        registry.register(RegistryUrls.consumer(s.service(), s.version(), s.group(), s.application()));
        return directory;
    }

    @Override
    public void close() {
        registry.close();
    }
}
