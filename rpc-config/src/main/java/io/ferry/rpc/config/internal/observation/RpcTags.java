package io.ferry.rpc.config.internal.observation;

import io.ferry.rpc.RpcStatus;
import io.ferry.rpc.config.observation.RpcObservations;
import io.micrometer.common.KeyValue;
import io.micrometer.common.KeyValues;

import java.lang.reflect.Method;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * The tags and span name of a call, made once per service, method and status and then reused: a call's observation
 * asks for them when it starts and when it stops, and building sorted key-value sets (and the name's string) each
 * time would be most of its cost.
 */
final class RpcTags {
    private static final int STATUSES = RpcStatus.values().length + 2;

    private final PerServiceMethod<PerMethod> byMethod = new PerServiceMethod<>(PerMethod::new);

    /** OpenTelemetry's RPC span name: {@code <fully qualified service>/<method>}. */
    String spanName(String service, Method method) {
        return byMethod.get(service, method).spanName;
    }

    /** The tags of a call still running: no status yet. */
    KeyValues running(String service, Method method) {
        return byMethod.get(service, method).base;
    }

    /** The tags of a call that ended with {@code status}. */
    KeyValues ended(String service, Method method, String status) {
        PerMethod keys = byMethod.get(service, method);
        int slot = slot(status);
        KeyValues tags = keys.withStatus.get(slot);
        if (tags == null) {
            tags = keys.base.and(KeyValue.of(RpcObservations.STATUS, status));
            keys.withStatus.lazySet(slot, tags);
        }
        return tags;
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
        final String spanName;
        final AtomicReferenceArray<KeyValues> withStatus = new AtomicReferenceArray<>(STATUSES);

        PerMethod(String service, Method method) {
            this.base = KeyValues.of(KeyValue.of(RpcObservations.SYSTEM, RpcObservations.SYSTEM_DUBBO),
                    KeyValue.of(RpcObservations.SERVICE, service),
                    KeyValue.of(RpcObservations.METHOD, method.getName()));
            this.spanName = service + "/" + method.getName();
        }
    }
}
