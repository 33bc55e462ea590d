package io.ferry.rpc.config.internal.cluster;

import io.ferry.rpc.registry.ProviderInstance;
import io.ferry.rpc.remoting.EndpointFactory;
import io.ferry.rpc.remoting.ProviderEndpoint;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.function.Supplier;

/**
 * Opens the endpoint of a provider the registry announced, with TLS where its port speaks only TLS (it registered
 * {@code ssl-enabled=true}) and as the reference's options say elsewhere: never plain text to a TLS port. The TLS
 * factory is made when a TLS provider first appears, so a reference that meets none reads no certificate file.
 */
public final class ProviderEndpoints {
    private final EndpointFactory asConfigured;
    private final Supplier<EndpointFactory> tls;
    private volatile EndpointFactory tlsMade;

    /** {@code asConfigured} for plain providers; {@code tls} (called once, when needed) for TLS ones. */
    public ProviderEndpoints(EndpointFactory asConfigured, Supplier<EndpointFactory> tls) {
        this.asConfigured = asConfigured;
        this.tls = tls;
    }

    /** Every provider through {@code endpoints}: a reference that uses TLS for all, or a test. */
    public static ProviderEndpoints only(EndpointFactory endpoints) {
        return new ProviderEndpoints(endpoints, () -> endpoints);
    }

    ProviderEndpoint open(ProviderInstance provider, Duration connectSpread) {
        EndpointFactory factory = provider.sslEnabled() ? tlsFactory() : asConfigured;
        return factory.open(new InetSocketAddress(provider.host(), provider.port()), provider.weight(), connectSpread);
    }

    private EndpointFactory tlsFactory() {
        EndpointFactory made = tlsMade;
        if (made == null) {
            synchronized (this) {
                if (tlsMade == null) {
                    tlsMade = tls.get();
                }
                made = tlsMade;
            }
        }
        return made;
    }
}
