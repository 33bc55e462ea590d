package io.ferry.rpc.config.observation;

import java.util.Set;

/**
 * The gauges and counters a Ferry registers in the application's {@code MeterRegistry} beside the calls' timers
 * ({@link RpcObservations}), and their tags: each meter's type, unit and meaning are in the README's "Meters" table.
 * Tags are of bounded cardinality only: the side, a state, a direction, a pool, a service; never an address.
 */
public final class FerryMeterNames {
    /** Calls in flight: a reference's sent and not yet ended ({@code side=client}), a service's running. */
    public static final String CALLS_ACTIVE = "ferry.calls.active";
    /** Connections by {@value #STATE}, either side. */
    public static final String CONNECTIONS = "ferry.connections";
    /** Bytes of Dubbo frames, by {@value #SIDE} and {@value #DIRECTION}. */
    public static final String BYTES = "ferry.bytes";
    /** Connections that stopped for a peer that did not keep up. */
    public static final String BACKPRESSURE_PAUSES = "ferry.backpressure.pauses";
    public static final String POOL_ACTIVE = "ferry.pool.active";
    public static final String POOL_QUEUED = "ferry.pool.queued";
    public static final String POOL_CAPACITY = "ferry.pool.capacity";
    public static final String POOL_REFUSED = "ferry.pool.refused";
    /** Requests a provider answered TIMEOUT without running them: their caller's deadline had passed. */
    public static final String DEADLINE_DROPS = "ferry.deadline.drops";
    /** Providers the registry lists for a service this Ferry references. */
    public static final String PROVIDERS = "ferry.providers";
    /** Providers that empty-list protection keeps calling while the registry lists none of the service. */
    public static final String PROVIDERS_KEPT = "ferry.providers.kept";
    public static final String PROVIDERS_EJECTED = "ferry.providers.ejected";
    public static final String RETRIES = "ferry.retries";
    public static final String RETRIES_REFUSED = "ferry.retries.refused";
    public static final String RETRY_BUDGET_LEFT = "ferry.retry.budget.left";
    /** 1 for the registry session's current {@value #STATE}, 0 for the others. */
    public static final String REGISTRY_STATE = "ferry.registry.state";

    /** {@code client} (this Ferry's references) or {@code server} (its exported services). */
    public static final String SIDE = "side";
    public static final String STATE = "state";
    /** {@code in} or {@code out}. */
    public static final String DIRECTION = "direction";
    /** {@code shared}, or the interface name of the service a pool is dedicated to. */
    public static final String POOL = "pool";
    /** The interface's fully qualified name, as on the calls' timers. */
    public static final String SERVICE = RpcObservations.SERVICE;

    /** Every tag key a Ferry meter may carry. */
    public static final Set<String> TAG_KEYS = Set.of(SIDE, STATE, DIRECTION, POOL, SERVICE);

    private FerryMeterNames() {
    }
}
