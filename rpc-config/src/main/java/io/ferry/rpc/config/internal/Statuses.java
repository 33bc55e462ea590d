package io.ferry.rpc.config.internal;

import io.ferry.rpc.cluster.Endpoint;
import io.ferry.rpc.config.FerryStatus;
import io.ferry.rpc.config.ReferenceConfig;
import io.ferry.rpc.config.ServiceConfig;
import io.ferry.rpc.config.option.Options;

import java.util.ArrayList;
import java.util.List;

/** Reads a {@link FerryStatus} off a runtime: its exports, references and registry, without touching the network. */
public final class Statuses {
    private Statuses() {
    }

    public static FerryStatus of(FerryRuntime runtime) {
        List<FerryStatus.Service> services = new ArrayList<>();
        for (ExportedService service : runtime.exports().all()) {
            ServiceConfig<?> config = service.config();
            services.add(new FerryStatus.Service(config.interfaceType().getName(), config.version(), config.group(),
                    service.hasRegistry() && service.isRegistered()));
        }
        List<FerryStatus.Reference> references = new ArrayList<>();
        for (CreatedReference reference : runtime.references()) {
            ReferenceConfig<?> config = reference.config();
            int known = 0;
            int ready = 0;
            for (Endpoint endpoint : reference.directory().endpoints()) {
                known++;
                if (endpoint.isReady()) {
                    ready++;
                }
            }
            Boolean check = reference.settings().get(Options.CHECK);
            references.add(new FerryStatus.Reference(config.id(), config.interfaceType().getName(), config.version(),
                    config.group(), check == null || check, reference.directory().listed() < 0, known, ready,
                    reference.directory().kept()));
        }
        return new FerryStatus(runtime.isClosed(), runtime.exports().isOffline(), registry(runtime), services,
                references);
    }

    private static FerryStatus.RegistryState registry(FerryRuntime runtime) {
        if (!runtime.hasRegistry()) {
            return FerryStatus.RegistryState.NONE;
        }
        RegistryBridge registry = runtime.openedRegistry();
        if (registry == null) {
            return FerryStatus.RegistryState.NOT_STARTED;
        }
        RegistryBridge.State state = registry.state();
        return state == null ? FerryStatus.RegistryState.UNKNOWN : FerryStatus.RegistryState.valueOf(state.name());
    }
}
