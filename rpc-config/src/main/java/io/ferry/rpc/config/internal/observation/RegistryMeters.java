package io.ferry.rpc.config.internal.observation;

import io.ferry.rpc.config.internal.RegistryBridge;
import io.micrometer.core.instrument.Tags;

import java.util.Locale;

import static io.ferry.rpc.config.observation.FerryMeterNames.REGISTRY_STATE;
import static io.ferry.rpc.config.observation.FerryMeterNames.STATE;

/** The registry session's state: one gauge per state, 1 for the current one (a registry that cannot tell: all 0). */
final class RegistryMeters {
    private RegistryMeters() {
    }

    static void bind(MeterSet meters, RegistryBridge registry) {
        for (RegistryBridge.State state : RegistryBridge.State.values()) {
            meters.gauge(REGISTRY_STATE, "1 while the registry session is in the state the tag names, else 0", null,
                    Tags.of(STATE, state.name().toLowerCase(Locale.ROOT)), registry,
                    r -> r.state() == state ? 1 : 0);
        }
    }
}
