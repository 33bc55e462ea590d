package io.ferry.rpc.config.internal;

import io.ferry.rpc.config.ServiceConfig;
import io.ferry.rpc.config.option.Resolved;

/**
 * A service this Ferry exports, as the admin port shows it: its config, its settings with where each came from,
 * its port, and its entry in the registry (null without a registry) with whether it is registered now.
 */
public final class ExportedService {
    private final ServiceConfig<?> config;
    private final Resolved settings;
    private final int port;
    private final RegistryBridge.ProviderEntry entry;
    private volatile boolean registered;

    ExportedService(ServiceConfig<?> config, Resolved settings, int port, RegistryBridge.ProviderEntry entry) {
        this.config = config;
        this.settings = settings;
        this.port = port;
        this.entry = entry;
    }

    public ServiceConfig<?> config() {
        return config;
    }

    public Resolved settings() {
        return settings;
    }

    public int port() {
        return port;
    }

    /** Whether this Ferry has a registry to announce the service in. */
    public boolean hasRegistry() {
        return entry != null;
    }

    /** Whether the registry has the service now (false without a registry). */
    public boolean isRegistered() {
        return registered;
    }

    /** "com.acme.Greeter:1.0 group g", for messages. */
    public String key() {
        return config.interfaceType().getName() + (config.version().isEmpty() ? "" : ":" + config.version())
                + (config.group().isEmpty() ? "" : " group " + config.group());
    }

    /** Registers it; returns whether there was anything to register. Under {@link Exports}' lock. */
    boolean register() {
        if (entry == null) {
            return false;
        }
        entry.register();
        registered = true;
        return true;
    }

    /** Unregisters it; returns whether it was registered. Under {@link Exports}' lock. */
    boolean unregister() {
        if (entry == null || !registered) {
            return false;
        }
        registered = false; // first: a failing registry still leaves it withdrawn as far as readiness goes
        entry.unregister();
        return true;
    }
}
