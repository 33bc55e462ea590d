package io.ferry.rpc.config.internal.admin;

import io.ferry.rpc.cluster.Endpoint;
import io.ferry.rpc.cluster.EndpointStats;
import io.ferry.rpc.config.RegistryConfig;
import io.ferry.rpc.config.ReferenceConfig;
import io.ferry.rpc.config.ServiceConfig;
import io.ferry.rpc.config.internal.CreatedReference;
import io.ferry.rpc.config.internal.ExportedService;
import io.ferry.rpc.config.internal.FerryRuntime;
import io.ferry.rpc.config.option.Resolved;
import io.ferry.rpc.remoting.AdminRequest;
import io.ferry.rpc.remoting.AdminResponse;
import io.ferry.rpc.remoting.JsonWriter;

import java.util.concurrent.CompletionStage;

/**
 * {@code /services}: what this process exports (with its port, registration and offline state) and references
 * (with its providers and what it has seen of each, and how many of them empty-list protection keeps while the
 * registry lists none), each with its effective settings and where each was set.
 * Values are shown as {@link Resolved#rows()} shows them: a token or a password masked, never the credential.
 */
final class ServicesEndpoint {
    private final FerryRuntime runtime;
    private final String application;
    private final RegistryConfig registry;

    ServicesEndpoint(FerryRuntime runtime, String application, RegistryConfig registry) {
        this.runtime = runtime;
        this.application = application;
        this.registry = registry;
    }

    CompletionStage<AdminResponse> services(AdminRequest request) {
        boolean offline = runtime.exports().isOffline();
        JsonWriter json = new JsonWriter().beginObject().field("application", application)
                .field("registry", registry == null ? null : registry.toString()).field("offline", offline);
        json.name("services").beginArray();
        for (ExportedService service : runtime.exports().all()) {
            exported(json, service, offline);
        }
        json.endArray().name("references").beginArray();
        for (CreatedReference reference : runtime.references()) {
            referenced(json, reference);
        }
        return AdminResponse.json(200, json.endArray().endObject()).now();
    }

    private static void exported(JsonWriter json, ExportedService service, boolean offline) {
        ServiceConfig<?> config = service.config();
        json.beginObject().field("interface", config.interfaceType().getName()).field("version", config.version())
                .field("group", config.group()).field("port", service.port()).name("registered");
        if (service.hasRegistry()) {
            json.value(service.isRegistered());
        } else {
            json.value((String) null); // no registry: nothing to be registered in
        }
        json.field("offline", offline);
        settings(json, service.settings());
        json.endObject();
    }

    private static void referenced(JsonWriter json, CreatedReference reference) {
        ReferenceConfig<?> config = reference.config();
        json.beginObject().field("interface", config.interfaceName()).field("id", config.id())
                .field("version", config.version()).field("group", config.group())
                .field("providersFrom", reference.directory().describe())
                .field("keptByEmptyProtection", reference.directory().kept())
                .field("keptWhileUnlisted", reference.directory().keptUnlisted())
                .name("providers").beginArray();
        for (Endpoint endpoint : reference.directory().endpoints()) {
            EndpointStats stats = endpoint.stats();
            json.beginObject().field("address", endpoint.address()).field("ready", endpoint.isReady())
                    .field("weight", endpoint.weight()).field("active", stats.active())
                    .field("latencyMs", stats.latencyNanos() / 1e6).field("succeeded", stats.succeeded())
                    .field("failed", stats.failed()).endObject();
        }
        json.endArray();
        settings(json, reference.settings());
        json.endObject();
    }

    /** Every setting with where it was set ("default" for a built-in one); credentials already masked. */
    private static void settings(JsonWriter json, Resolved resolved) {
        json.name("settings").beginArray();
        for (Resolved.Row row : resolved.rows()) {
            json.beginObject().field("option", row.option());
            if (row.method() != null) {
                json.field("method", row.method());
            }
            json.field("value", row.value()).field("from", row.where()).endObject();
        }
        json.endArray();
    }
}
