package io.ferry.rpc.config.internal.admin;

import io.ferry.rpc.config.internal.CallTotals;
import io.ferry.rpc.config.internal.FerryRuntime;
import io.ferry.rpc.remoting.AdminRequest;
import io.ferry.rpc.remoting.AdminResponse;
import io.ferry.rpc.remoting.JsonWriter;

import java.util.concurrent.CompletionStage;

/**
 * {@code GET /calls}: the calls' timers summed per side, service and method, as totals since the first call (the
 * admin page turns two of them into rates); a 404 saying how to get them where the application gave Ferry no meter
 * registry. Read on the admin thread.
 */
final class CallsEndpoint {
    static final String NONE = "metrics are off: hand Ferry a MeterRegistry with "
            + "Ferry.builder().observability(Observability.meters(registry))";

    private final FerryRuntime runtime;

    CallsEndpoint(FerryRuntime runtime) {
        this.runtime = runtime;
    }

    CompletionStage<AdminResponse> calls(AdminRequest request) {
        CallTotals totals = runtime.calls();
        if (totals == null) {
            return AdminResponse.error(404, NONE).now();
        }
        JsonWriter json = new JsonWriter().beginObject().name("calls").beginArray();
        for (CallTotals.Row row : totals.rows()) {
            json.beginObject().field("side", row.side()).field("service", row.service())
                    .field("method", row.method()).field("calls", row.calls()).field("errors", row.errors())
                    .field("totalMs", row.totalMs()).field("maxMs", row.maxMs()).endObject();
        }
        return AdminResponse.json(200, json.endArray().endObject()).now();
    }
}
