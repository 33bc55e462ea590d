package io.ferry.rpc.config.internal;

import io.ferry.rpc.remoting.Server;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;

/**
 * The services a Ferry exports, and whether an operator took them offline: offline withdraws every one from the
 * registry and sends consumers Dubbo's readonly event; online undoes both. A service exported while offline waits
 * for online to be registered. One lock orders exports, offline and online; registry calls run under it, and for
 * offline and online on the admin thread, since they are rare and short: probes wait for them (at most the
 * registry's own timeout when ZooKeeper is away), calls never do.
 */
public final class Exports {
    private static final Logger log = LoggerFactory.getLogger(Exports.class);

    private final List<ExportedService> services = new ArrayList<>();
    private boolean offline;

    /** What offline or online did: services (un)registered, connections told. */
    public record Change(int registry, int connections) {
    }

    /** Adds an exported service and registers it, unless offline. On a registry's refusal it is not kept. */
    synchronized void add(ExportedService service) {
        if (!offline) {
            service.register(); // a refusal throws: the export fails and unexports
        }
        services.add(service);
    }

    public synchronized List<ExportedService> all() {
        return List.copyOf(services);
    }

    public synchronized boolean isOffline() {
        return offline;
    }

    /** The first service that should be in the registry and is not, or null. */
    public synchronized ExportedService firstUnregistered() {
        for (ExportedService service : services) {
            if (service.hasRegistry() && !service.isRegistered()) {
                return service;
            }
        }
        return null;
    }

    /**
     * Withdraws every service from the registry, then tells every consumer connection that this provider takes no
     * new calls (the order of a graceful shutdown: consumers learn from both, the registry first). Calls that still
     * arrive are served. Idempotent.
     */
    public synchronized Change offline(Server server) {
        offline = true;
        int withdrawn = 0;
        for (ExportedService service : services) {
            if (service.unregister()) {
                withdrawn++;
            }
        }
        int told = server.announceReadonly();
        log.info("offline: {} service(s) unregistered, readonly event sent to {} consumer connection(s)", withdrawn,
                told);
        return new Change(withdrawn, told);
    }

    /**
     * Tells every consumer connection that this provider takes calls again (Dubbo's writeable event), then registers
     * every service again with the URL it had, so consumers take it for the provider they knew. Idempotent.
     */
    public synchronized Change online(Server server) {
        int told = server.announceWritable();
        int registered = 0;
        for (ExportedService service : services) {
            if (!service.isRegistered() && service.register()) {
                registered++;
            }
        }
        offline = false;
        log.info("online: writeable event sent to {} consumer connection(s), {} service(s) registered", told,
                registered);
        return new Change(registered, told);
    }
}
