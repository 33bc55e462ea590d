package io.ferry.rpc.config.internal.observation;

import io.ferry.rpc.RpcStatus;
import io.ferry.rpc.config.observation.RpcObservations;
import io.micrometer.common.KeyValue;
import io.micrometer.common.KeyValues;

import java.lang.reflect.Method;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * The tags of a call, made once per method and status and then reused: a call's observation asks for them when it
 * starts and when it stops, and building sorted key-value sets each time would be most of its cost.
 */
final class RpcTags {
    private static final int STATUSES = RpcStatus.values().length + 2;

    private final ConcurrentMap<Method, PerMethod> byMethod = new ConcurrentHashMap<>();

    /** The tags of a call still running: no status yet. */
    KeyValues running(String service, Method method) {
        return perMethod(service, method).base;
    }

    /** The tags of a call that ended with {@code status}. */
    KeyValues ended(String service, Method method, String status) {
        PerMethod keys = perMethod(service, method);
        int slot = slot(status);
        KeyValues tags = keys.withStatus.get(slot);
        if (tags == null) {
            tags = keys.base.and(KeyValue.of(RpcObservations.STATUS, status));
            keys.withStatus.lazySet(slot, tags);
        }
        return tags;
    }

    private PerMethod perMethod(String service, Method method) {
        PerMethod keys = byMethod.get(method);
        return keys != null ? keys : byMethod.computeIfAbsent(method, m -> new PerMethod(service, m));
    }

    private static int slot(String status) {
        if (RpcObservations.OK.equals(status)) {
            return 0;
        }
        if (RpcObservations.EXCEPTION.equals(status)) {
            return 1;
        }
        return 2 + RpcStatus.valueOf(status).ordinal();
    }

    private static final class PerMethod {
        final KeyValues base;
        final AtomicReferenceArray<KeyValues> withStatus = new AtomicReferenceArray<>(STATUSES);

        PerMethod(String service, Method method) {
            this.base = KeyValues.of(KeyValue.of(RpcObservations.SYSTEM, RpcObservations.SYSTEM_DUBBO),
                    KeyValue.of(RpcObservations.SERVICE, service),
                    KeyValue.of(RpcObservations.METHOD, method.getName()));
        }
    }
}
