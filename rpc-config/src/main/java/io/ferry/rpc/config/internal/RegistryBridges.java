package io.ferry.rpc.config.internal;

import io.ferry.rpc.config.RegistryConfig;
import io.ferry.rpc.config.internal.cluster.Clocks;
import io.ferry.rpc.config.internal.cluster.ClusterDirectory;
import io.ferry.rpc.config.internal.cluster.RegistryDirectory;
import io.ferry.rpc.registry.Registry;
import io.ferry.rpc.registry.ServiceKey;
import io.ferry.rpc.registry.ZookeeperRegistry;

/** The registry bridge over ZooKeeper: the only class of the bootstrap's path that needs rpc-registry. */
public final class RegistryBridges implements RegistryBridge {
    private final Registry registry;
    private final String application;
    private final Clocks clocks;

    private RegistryBridges(Registry registry, String application, Clocks clocks) {
        this.registry = registry;
        this.application = application;
        this.clocks = clocks;
    }

    /**
     * Connects to the configured registry. A RegistryConfig exists only where rpc-registry is on the class path
     * (RegistryConfig.of says so otherwise), so this class loads only then.
     */
    public static RegistryBridge open(RegistryConfig config, String application, Clocks clocks) {
        // the registry's work runs on the Ferry's one timer, in order: no thread of its own
        return new RegistryBridges(new ZookeeperRegistry(config.options().forApplication(application),
                clocks.timer(), clocks.ticker()), application, clocks);
    }

    @Override
    public void registerProvider(Registration r) {
        registry.register(RegistryUrls.provider(r, application, clocks.wall().millis()));
    }

    @Override
    public ClusterDirectory subscribe(Subscription s) {
        RegistryDirectory directory = new RegistryDirectory(s.service().getName(), s.endpoints(), s.connectSpread(),
                s.drainMillis(), s.ejection(), registry::describe, clocks);
        registry.subscribe(new ServiceKey(s.service().getName(), s.version(), s.group()), directory);
        registry.register(RegistryUrls.consumer(s.service(), s.version(), s.group(), application,
                clocks.wall().millis()));
        return directory;
    }

    @Override
    public void close() {
        registry.close();
    }
}
