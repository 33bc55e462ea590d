package io.ferry.rpc.config.internal.admin;

import io.ferry.rpc.config.internal.FerryRuntime;
import io.ferry.rpc.remoting.AdminRequest;
import io.ferry.rpc.remoting.AdminResponse;
import io.ferry.rpc.remoting.ConnectionInfo;
import io.ferry.rpc.remoting.ConnectionView;
import io.ferry.rpc.remoting.JsonWriter;

import java.time.Duration;
import java.util.concurrent.CompletionStage;

/** {@code /connections}: the consumer's and the provider's connection views, one object per connection. */
final class ConnectionsEndpoint {
    private final FerryRuntime runtime;

    ConnectionsEndpoint(FerryRuntime runtime) {
        this.runtime = runtime;
    }

    CompletionStage<AdminResponse> connections(AdminRequest request) {
        JsonWriter json = new JsonWriter().beginObject();
        view(json.name("consumer"), runtime.consumerConnections());
        view(json.name("provider"), runtime.providerConnections());
        return AdminResponse.json(200, json.endObject()).now();
    }

    private static void view(JsonWriter json, ConnectionView view) {
        json.beginObject().field("side", view.side()).name("connections").beginArray();
        for (ConnectionInfo c : view.connections()) {
            json.beginObject().field("local", c.local()).field("remote", c.remote()).field("ioThread", c.ioThread())
                    .field("state", c.state().name()).field("pendingCalls", c.pendingCalls())
                    .field("queuedBytes", c.queuedBytes()).field("unwritableMs", c.unwritableTime().toMillis());
            millis(json.name("lastHeartbeatRttMs"), c.lastHeartbeatRtt());
            json.field("ageMs", c.age().toMillis()).endObject();
        }
        json.endArray().endObject();
    }

    private static void millis(JsonWriter json, Duration d) {
        if (d == null) {
            json.value((String) null);
        } else {
            json.value(d.toMillis());
        }
    }
}
