package io.ferry.rpc.config.extension;

import io.ferry.rpc.registry.Registry;

/**
 * Opens the registry an address names by its scheme: the provider called {@code "zookeeper"} opens
 * {@code zookeeper://...} addresses (Ferry's own, registered the same way), one called {@code "etcd"} would open
 * {@code etcd://...}. Registered in {@code META-INF/services/io.ferry.rpc.config.extension.RegistryProvider}; its
 * {@link #name()} is the scheme. It needs rpc-registry on the class path, whose {@link Registry} it returns.
 * <pre>{@code
 * public final class EtcdRegistryProvider implements RegistryProvider {
 *     public String name() { return "etcd"; }
 *     public Registry open(RegistryContext context) {
 *         return new EtcdRegistry(context.registry().address(), context.timer());
 *     }
 * }
 * }</pre>
 * An address whose scheme no provider registers is refused when the configuration is read (or
 * {@code RegistryConfig.of} is called), naming the option, where it was set and the schemes there are.
 */
public interface RegistryProvider extends Extension {
    /**
     * Opens this Ferry's registry session: called once per Ferry that has this registry, when it first needs it
     * (its first export or reference). The Ferry wraps the registry: it registers each exported service's provider
     * URL and each reference's consumer URL, subscribes each reference to its service key, and closes the registry
     * when it closes (before draining its server).
     *
     * <p>The registry keeps the contract of {@link Registry}: registrations outlive connection loss, a listener
     * gets the complete list of live providers of its key (first the current one) on one thread at a time and never
     * blocking, and {@link Registry#close()} unregisters everything. Delayed or background work should run on
     * {@link RegistryContext#timer()}, the Ferry's one scheduler, rather than on threads of its own.
     *
     * @throws IllegalArgumentException when the address or settings are wrong for this registry, naming them
     */
    Registry open(RegistryContext context);
}
