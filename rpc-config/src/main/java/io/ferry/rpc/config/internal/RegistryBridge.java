package io.ferry.rpc.config.internal;

import io.ferry.rpc.config.OutlierEjection;
import io.ferry.rpc.config.internal.cluster.ClusterDirectory;
import io.ferry.rpc.config.internal.cluster.ListProtection;
import io.ferry.rpc.config.internal.cluster.ProviderEndpoints;

import java.time.Duration;
import java.util.Map;

/**
 * What the bootstrap needs of a registry, in rpc-config's own types only. rpc-registry is an optional dependency:
 * the bootstrap touches it only through this interface, whose one implementation ({@link RegistryBridges}) is
 * loaded when a registry is configured, so a direct-url application runs without rpc-registry, ZooKeeper and
 * Curator on its class path.
 */
public interface RegistryBridge extends AutoCloseable {
    /** An exported service as the registry announces it; {@code token} null when it asks for none. */
    record Registration(Class<?> service, String version, String group, String advertisedHost, String boundHost,
                        int port, Duration timeout, Duration heartbeat, ProviderToken token, boolean sslEnabled,
                        Map<String, String> consumerSettings) {
    }

    /**
     * A reference's interest in a service: its providers become endpoints of {@code endpoints}, connected over
     * {@code connectSpread}; a provider that leaves is drained for {@code drainMillis}. {@code serviceName} is the
     * interface's name, which a generic reference ({@code service} GenericService) gives as text.
     */
    record Subscription(Class<?> service, String serviceName, String version, String group,
                        ProviderEndpoints endpoints, Duration connectSpread, long drainMillis,
                        OutlierEjection ejection, ListProtection protection) {
    }

    /**
     * One exported service's entry in the registry, made once: registering it again after an unregister writes the
     * same URL, timestamp included, so consumers see the provider they knew (not a restart with a new warm-up).
     */
    interface ProviderEntry {
        /** Announces it; returns once the registry has it (or, the registry away, keeps it for its next session). */
        void register();

        /** Withdraws it: consumers stop finding this provider. */
        void unregister();
    }

    /** The entry of an exported service, not yet registered. */
    ProviderEntry provider(Registration registration);

    /** A directory of the providers the registry announces for a reference, and the reference's own entry. */
    ClusterDirectory subscribe(Subscription subscription);

    /** Where the registry's session stands, for a gauge. */
    enum State { CONNECTED, SUSPENDED, LOST }

    /** The session's state now, without blocking; null for a registry that cannot tell. */
    State state();

    /** Unregisters everything and releases the session. */
    @Override
    void close();
}
