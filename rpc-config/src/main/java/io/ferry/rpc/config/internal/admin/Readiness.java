package io.ferry.rpc.config.internal.admin;

import io.ferry.rpc.config.internal.ExportedService;
import io.ferry.rpc.config.internal.FerryRuntime;

/**
 * Whether this process should be sent work, as a Kubernetes readiness probe asks: not while it closes, not while an
 * operator has it offline, not before it exports or references anything, and not while a service it exports is
 * missing from the registry.
 */
final class Readiness {
    private final FerryRuntime runtime;

    Readiness(FerryRuntime runtime) {
        this.runtime = runtime;
    }

    /** Null when ready; else why not, in words. */
    String whyNot() {
        if (runtime.isClosed()) {
            return "shutting down";
        }
        if (runtime.exports().isOffline()) {
            return "offline: POST /online to take calls again";
        }
        if (runtime.exports().all().isEmpty() && runtime.references().isEmpty()) {
            return "nothing exported or referenced yet";
        }
        ExportedService missing = runtime.exports().firstUnregistered();
        if (missing != null) {
            return missing.key() + " is not registered";
        }
        return null;
    }
}
