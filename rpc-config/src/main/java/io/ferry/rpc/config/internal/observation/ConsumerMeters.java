package io.ferry.rpc.config.internal.observation;

import io.ferry.rpc.config.internal.ReferenceStats;
import io.micrometer.core.instrument.Tags;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.ToDoubleFunction;
import java.util.function.ToIntFunction;

import static io.ferry.rpc.config.observation.FerryMeterNames.CALLS_ACTIVE;
import static io.ferry.rpc.config.observation.FerryMeterNames.PROVIDERS;
import static io.ferry.rpc.config.observation.FerryMeterNames.PROVIDERS_EJECTED;
import static io.ferry.rpc.config.observation.FerryMeterNames.PROVIDERS_KEPT;
import static io.ferry.rpc.config.observation.FerryMeterNames.RETRIES;
import static io.ferry.rpc.config.observation.FerryMeterNames.RETRIES_REFUSED;
import static io.ferry.rpc.config.observation.FerryMeterNames.RETRY_BUDGET_LEFT;
import static io.ferry.rpc.config.observation.FerryMeterNames.SERVICE;
import static io.ferry.rpc.config.observation.FerryMeterNames.SIDE;

/**
 * The consumer's meters, one set per referenced service (tag {@code rpc.service}): the references to one interface
 * (several groups or versions, or the same one twice) are summed, except their provider listing, which references
 * to the same group and version share and is counted once.
 */
final class ConsumerMeters {
    private final MeterSet meters;
    /** Held here (the Ferry holds this), so that the meters' weak references keep them while the Ferry lives. */
    private final Map<String, References> byService = new ConcurrentHashMap<>();

    ConsumerMeters(MeterSet meters) {
        this.meters = meters;
    }

    void add(ReferenceStats reference) {
        References group = byService.computeIfAbsent(reference.service(), s -> new References());
        group.all.add(reference);
        Tags tags = Tags.of(SERVICE, reference.service());
        meters.gauge(CALLS_ACTIVE, "Calls in flight: on a consumer, calls sent to the service's providers and not yet"
                + " ended", "calls", Tags.of(SIDE, "client", SERVICE, reference.service()), group,
                g -> g.sum(ReferenceStats::inFlight));
        meters.gauge(PROVIDERS_EJECTED, "Providers out of rotation after calls to them timed out or lost their"
                + " connection (ejected, or on probation until a probe answers)", "providers", tags, group,
                g -> g.sum(r -> r.directory().ejected()));
        if (reference.directory().listed() >= 0) {
            meters.gauge(PROVIDERS, "Providers the registry lists for the service", "providers", tags, group,
                    g -> g.perKey(r -> Math.max(0, r.directory().listed())));
            meters.gauge(PROVIDERS_KEPT, "Providers called while the registry does not list them (their"
                    + " connections live): kept by empty-list protection, or unlisted within unlistedGrace",
                    "providers", tags, group, g -> g.perKey(r -> r.directory().kept() + r.directory().keptUnlisted()));
        }
        if (reference.retries() != null) {
            meters.counter(RETRIES, "Attempts moved to another provider (the first one provably did not run the"
                    + " call, or it is idempotent)", "retries", tags, group,
                    g -> g.sum(r -> r.retries() == null ? 0 : r.retries().retries()));
            meters.counter(RETRIES_REFUSED, "Retries the retry budget refused: the call failed with its last error",
                    "retries", tags, group, g -> g.sum(r -> r.retries() == null ? 0 : r.retries().refusedByBudget()));
            meters.gauge(RETRY_BUDGET_LEFT, "Retries the retry budget allows now over its 10-second window",
                    "retries", tags, group, g -> g.sum(r -> r.retries() == null ? 0 : r.retries().budgetLeft()));
        }
    }

    /** The references to one service. */
    private static final class References {
        final List<ReferenceStats> all = new CopyOnWriteArrayList<>();

        double sum(ToDoubleFunction<ReferenceStats> field) {
            double sum = 0;
            for (ReferenceStats reference : all) {
                sum += field.applyAsDouble(reference);
            }
            return sum;
        }

        /** Each group and version's count once: references to the same one see the same providers. */
        double perKey(ToIntFunction<ReferenceStats> count) {
            Map<String, Integer> byKey = new HashMap<>();
            for (ReferenceStats reference : all) {
                byKey.merge(reference.key(), count.applyAsInt(reference), Math::max);
            }
            return byKey.values().stream().mapToInt(Integer::intValue).sum();
        }
    }
}
