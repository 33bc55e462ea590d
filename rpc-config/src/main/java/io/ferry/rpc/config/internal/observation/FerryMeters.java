package io.ferry.rpc.config.internal.observation;

import io.ferry.rpc.config.internal.ReferenceStats;
import io.ferry.rpc.config.internal.RegistryBridge;
import io.ferry.rpc.config.internal.RuntimeMeters;
import io.ferry.rpc.remoting.Client;
import io.ferry.rpc.remoting.Server;
import io.micrometer.core.instrument.MeterRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One Ferry's gauges and counters in the application's meter registry: each part's meters are registered as the
 * part starts (the client with the first reference, the server with the first export, a service's as it is
 * exported or referenced) and all of them are removed when the Ferry closes. The gauges hold their state objects
 * weakly (Micrometer's default) and read them without blocking. Registering never fails what the Ferry does: a
 * failure (Micrometer's classes not linking) turns the meters off with one WARN.
 */
public final class FerryMeters implements RuntimeMeters {
    private static final Logger log = LoggerFactory.getLogger(FerryMeters.class);

    private final MeterSet meters;
    private final ConsumerMeters consumer;
    /** The server, once started: services exported later are read from it. */
    private volatile Server server;
    private volatile boolean off;

    private FerryMeters(MeterRegistry registry) {
        this.meters = new MeterSet(registry);
        this.consumer = new ConsumerMeters(meters);
    }

    /** Meters of a Ferry, in {@code registry}: none yet, each part registers its own as it starts. */
    public static RuntimeMeters create(MeterRegistry registry) {
        return new FerryMeters(registry);
    }

    @Override
    public void clientStarted(Client client) {
        safely("the client's", () -> TransportMeters.client(meters, client));
    }

    @Override
    public void serverStarted(Server server) {
        this.server = server;
        safely("the server's", () -> {
            TransportMeters.server(meters, server);
            ProviderMeters.pools(meters, server);
        });
    }

    @Override
    public void serviceExported(String service) {
        Server running = server;
        if (running != null) {
            safely(service + "'s", () -> ProviderMeters.service(meters, running, service));
        }
    }

    @Override
    public void referenceOpened(ReferenceStats reference) {
        safely(reference.service() + "'s", () -> consumer.add(reference));
    }

    @Override
    public void registryOpened(RegistryBridge registry) {
        safely("the registry's", () -> RegistryMeters.bind(meters, registry));
    }

    @Override
    public void close() {
        meters.removeAll();
    }

    private void safely(String what, Runnable register) {
        if (off) {
            return;
        }
        try {
            register.run();
        } catch (RuntimeException | LinkageError e) {
            off = true;
            log.warn("meters turned off: registering {} meters failed: {} ({})", what, e.toString(),
                    MicrometerVersions.describe());
        }
    }
}
