package io.ferry.rpc.config.internal;

import io.ferry.rpc.Ticker;
import io.ferry.rpc.config.RegistryConfig;
import io.ferry.rpc.config.extension.Extensions;
import io.ferry.rpc.config.extension.RegistryContext;
import io.ferry.rpc.config.extension.RegistryProvider;
import io.ferry.rpc.config.internal.cluster.Clocks;
import io.ferry.rpc.config.internal.cluster.ClusterDirectory;
import io.ferry.rpc.config.internal.cluster.RegistryDirectory;
import io.ferry.rpc.config.option.Options;
import io.ferry.rpc.registry.Registry;
import io.ferry.rpc.registry.ServiceKey;
import io.ferry.rpc.option.RegistryOptionKeys;
import io.ferry.rpc.registry.RegistryState;
import io.ferry.rpc.registry.ServiceUrl;
import java.time.Duration;
import java.util.Map;

import java.time.Clock;
import java.util.concurrent.ScheduledExecutorService;
import java.util.stream.Collectors;

/**
 * The registry bridge over the {@link Registry} a {@link RegistryProvider} opens for the address's scheme: the only
 * class of the bootstrap's path that needs rpc-registry.
 */
public final class RegistryBridges implements RegistryBridge {
    private final Registry registry;
    private final String application;
    private final Map<String, String> metadata;
    private final Clocks clocks;

    private RegistryBridges(Registry registry, String application, Map<String, String> metadata, Clocks clocks) {
        this.registry = registry;
        this.application = application;
        this.metadata = metadata;
        this.clocks = clocks;
    }

    /**
     * Opens the configured registry through the provider of its scheme. A RegistryConfig exists only where
     * rpc-registry is on the class path (RegistryConfig.of says so otherwise), so this class loads only then.
     * {@code metadata}: the application's, written into every URL registered.
     *
     * @throws IllegalStateException with {@code check} (Dubbo's default, not Ferry's), when the registry has not answered
     *                               within its connection timeout; the registry is closed then
     */
    public static RegistryBridge open(RegistryConfig config, String application, Map<String, String> metadata,
                                      Clocks clocks) {
        RegistryProvider provider = provider(config.address());
        Registry registry = provider.open(new Context(config, application, clocks));
        if (registry == null) {
            throw new IllegalStateException("registry: " + config + ": " + provider.getClass().getName()
                    + " opened none");
        }
        boolean check = config.settings().get(RegistryOptionKeys.CHECK, false);
        if (check && registry.state().map(state -> state != RegistryState.CONNECTED).orElse(false)) {
            registry.close();
            throw new IllegalStateException("registry: " + config + " did not answer within " + config.settings()
                    .get(RegistryOptionKeys.CONNECTION_TIMEOUT, Duration.ofSeconds(5)).toMillis() + " ms ("
                    + "check=true fails the start; without it, or with check=\"false\" on <registry> or "
                    + "ferry.registry.check=false, Ferry starts anyway, from the cache file, and retries until it "
                    + "answers)");
        }
        return new RegistryBridges(registry, application, metadata, clocks);
    }

    /**
     * The provider registered for the address's scheme.
     *
     * @throws IllegalArgumentException naming the option, the address and the schemes there are
     */
    public static RegistryProvider provider(String address) {
        int end = address == null ? -1 : address.indexOf("://");
        RegistryProvider provider = end <= 0 ? null
                : Extensions.find(RegistryProvider.class, address.substring(0, end));
        if (provider == null) {
            throw new IllegalArgumentException(Options.REGISTRY_ADDRESS.fileName() + ": '" + address
                    + "' (expected: one of " + Extensions.names(RegistryProvider.class).stream()
                    .map(scheme -> scheme + "://").collect(Collectors.joining(", ")) + ")");
        }
        return provider;
    }

    @Override
    public ProviderEntry provider(Registration r) {
        ServiceUrl url = RegistryUrls.provider(r, application, metadata, clocks.wall().millis());
        return new ProviderEntry() {
            @Override
            public void register() {
                registry.register(url);
            }

            @Override
            public void unregister() {
                registry.unregister(url);
            }
        };
    }

    @Override
    public ClusterDirectory subscribe(Subscription s) {
        RegistryDirectory directory = new RegistryDirectory(s.serviceName(), s.endpoints(), s.connectSpread(),
                s.drainMillis(), s.ejection(), registry::describe, clocks, s.protection());
        registry.subscribe(new ServiceKey(s.serviceName(), s.version(), s.group()), directory);
        registry.register(RegistryUrls.consumer(s.service(), s.serviceName(), s.version(), s.group(), application,
                metadata,
                clocks.wall().millis()));
        return directory;
    }

    @Override
    public State state() {
        return registry.state().map(s -> State.valueOf(s.name())).orElse(null);
    }

    @Override
    public void close() {
        registry.close();
    }

    /** What a provider is given: the config, the application, and the Ferry's clocks and one scheduler. */
    private record Context(RegistryConfig registry, String application, Clocks clocks) implements RegistryContext {
        @Override
        public Ticker ticker() {
            return clocks.ticker();
        }

        @Override
        public Clock wall() {
            return clocks.wall();
        }

        @Override
        public ScheduledExecutorService timer() {
            return clocks.timer();
        }
    }
}
