package io.ferry.rpc.config.internal.admin;

import io.ferry.rpc.config.internal.FerryRuntime;
import io.ferry.rpc.remoting.AdminRequest;
import io.ferry.rpc.remoting.AdminResponse;
import io.ferry.rpc.remoting.JsonWriter;

import java.util.concurrent.CompletionStage;

/** {@code /health/live} and {@code /health/ready}, for Kubernetes probes: 200 or 503, with the reason in JSON. */
final class HealthEndpoints {
    private final FerryRuntime runtime;
    private final Readiness readiness;

    HealthEndpoints(FerryRuntime runtime) {
        this.runtime = runtime;
        this.readiness = new Readiness(runtime);
    }

    /** 200 while the admin port answers at all: until the very end of close, so a drain is never killed early. */
    CompletionStage<AdminResponse> live(AdminRequest request) {
        return AdminResponse.json(200, new JsonWriter().beginObject().field("live", true)
                .field("closing", runtime.isClosed()).endObject()).now();
    }

    CompletionStage<AdminResponse> ready(AdminRequest request) {
        String why = readiness.whyNot();
        JsonWriter json = new JsonWriter().beginObject().field("ready", why == null);
        if (why != null) {
            json.field("reason", why);
        } else {
            json.field("services", runtime.exports().all().size()).field("references",
                    runtime.references().size());
        }
        return AdminResponse.json(why == null ? 200 : 503, json.endObject()).now();
    }
}
