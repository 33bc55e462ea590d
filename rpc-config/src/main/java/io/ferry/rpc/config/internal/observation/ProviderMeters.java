package io.ferry.rpc.config.internal.observation;

import io.ferry.rpc.remoting.PoolStats;
import io.ferry.rpc.remoting.Server;
import io.ferry.rpc.remoting.ServiceStats;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.BaseUnits;

import java.util.function.ToDoubleFunction;

import static io.ferry.rpc.config.observation.FerryMeterNames.CALLS_ACTIVE;
import static io.ferry.rpc.config.observation.FerryMeterNames.DEADLINE_DROPS;
import static io.ferry.rpc.config.observation.FerryMeterNames.POOL;
import static io.ferry.rpc.config.observation.FerryMeterNames.POOL_ACTIVE;
import static io.ferry.rpc.config.observation.FerryMeterNames.POOL_CAPACITY;
import static io.ferry.rpc.config.observation.FerryMeterNames.POOL_QUEUED;
import static io.ferry.rpc.config.observation.FerryMeterNames.POOL_REFUSED;
import static io.ferry.rpc.config.observation.FerryMeterNames.SERVICE;
import static io.ferry.rpc.config.observation.FerryMeterNames.SIDE;

/**
 * The provider's meters, read from its server (held weakly): each business pool's threads busy, requests queued,
 * capacity and refusals, and each exported service's calls running and deadline drops. Services exported under
 * several versions or groups are summed under their interface's name.
 */
final class ProviderMeters {
    private ProviderMeters() {
    }

    /** The pools running now: the shared one at start, a service's own as it is exported. */
    static void pools(MeterSet meters, Server server) {
        for (PoolStats pool : server.poolStats()) {
            String name = pool.name();
            Tags tags = Tags.of(POOL, name);
            meters.gauge(POOL_ACTIVE, "Business threads running requests", BaseUnits.THREADS, tags, server,
                    s -> pool(s, name, PoolStats::active));
            meters.gauge(POOL_QUEUED, "Requests admitted to the business pool and waiting for a thread", "requests",
                    tags, server, s -> pool(s, name, PoolStats::queued));
            meters.gauge(POOL_CAPACITY, "Requests the business pool takes at once (threads + queues)", "requests",
                    tags, server, s -> pool(s, name, PoolStats::capacity));
            meters.counter(POOL_REFUSED, "Requests answered THREADPOOL_EXHAUSTED because the business pool was full",
                    "requests", tags, server, s -> pool(s, name, PoolStats::refused));
        }
    }

    static void service(MeterSet meters, Server server, String service) {
        pools(meters, server); // a service with a pool of its own brings it now (those bound already are skipped)
        meters.gauge(CALLS_ACTIVE, "Calls in flight: on a provider, requests running in the service's chain",
                "calls", Tags.of(SIDE, "server", SERVICE, service), server,
                s -> sum(s, service, ServiceStats::inFlight));
        meters.counter(DEADLINE_DROPS, "Requests answered TIMEOUT without running: their caller's deadline had"
                + " passed before a business thread took them", "requests", Tags.of(SERVICE, service), server,
                s -> sum(s, service, ServiceStats::deadlineDrops));
    }

    private static double pool(Server server, String name, ToDoubleFunction<PoolStats> field) {
        for (PoolStats pool : server.poolStats()) {
            if (pool.name().equals(name)) {
                return field.applyAsDouble(pool);
            }
        }
        return 0;
    }

    private static double sum(Server server, String service, ToDoubleFunction<ServiceStats> field) {
        double sum = 0;
        for (ServiceStats stats : server.serviceStats()) {
            if (stats.service().equals(service)) {
                sum += field.applyAsDouble(stats);
            }
        }
        return sum;
    }
}
