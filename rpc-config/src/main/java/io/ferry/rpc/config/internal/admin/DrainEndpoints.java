package io.ferry.rpc.config.internal.admin;

import io.ferry.rpc.config.internal.Exports;
import io.ferry.rpc.config.internal.FerryRuntime;
import io.ferry.rpc.remoting.AdminRequest;
import io.ferry.rpc.remoting.AdminResponse;
import io.ferry.rpc.remoting.JsonWriter;
import io.ferry.rpc.remoting.Server;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * {@code POST /offline} and {@code POST /online}: take this provider out of the registry and away from its
 * consumers before a deploy stops it, or put it back. Offline answers once no call is in flight, or after
 * {@code timeoutMs} (default 10 s) saying how many still are; the wait runs on the Ferry's timer, not on the admin
 * thread, so probes are answered meanwhile.
 */
final class DrainEndpoints {
    static final long DEFAULT_TIMEOUT_MS = 10_000;
    static final long MAX_TIMEOUT_MS = 600_000;

    private final FerryRuntime runtime;

    DrainEndpoints(FerryRuntime runtime) {
        this.runtime = runtime;
    }

    CompletionStage<AdminResponse> offline(AdminRequest request) {
        long timeoutMs;
        try {
            timeoutMs = timeoutMs(request.parameter("timeoutMs"));
        } catch (IllegalArgumentException e) {
            return AdminResponse.error(400, e.getMessage()).now();
        }
        Server server = runtime.runningServer();
        AdminResponse refused = refusal(server);
        if (refused != null) {
            return refused.now();
        }
        Exports.Change change = runtime.exports().offline(server);
        long start = runtime.ticker().nanoTime();
        CompletableFuture<Boolean> drained = new CompletableFuture<>();
        server.whenIdle().thenRun(() -> drained.complete(true)); // only a completion on the thread that ends a call
        ScheduledFuture<?> bound = runtime.timer().schedule(() -> drained.complete(false), timeoutMs,
                TimeUnit.MILLISECONDS);
        return drained.thenApplyAsync(done -> {
            bound.cancel(false);
            return AdminResponse.json(200, new JsonWriter().beginObject().field("offline", true)
                    .field("unregistered", change.registry()).field("readonlySent", change.connections())
                    .field("drained", done).field("inFlight", done ? 0 : server.inFlight())
                    .field("waitedMs", TimeUnit.NANOSECONDS.toMillis(runtime.ticker().nanoTime() - start))
                    .field("timeoutMs", timeoutMs).endObject());
        }, runtime.timer());
    }

    CompletionStage<AdminResponse> online(AdminRequest request) {
        Server server = runtime.runningServer();
        AdminResponse refused = refusal(server);
        if (refused != null) {
            return refused.now();
        }
        Exports.Change change = runtime.exports().online(server);
        return AdminResponse.json(200, new JsonWriter().beginObject().field("offline", false)
                .field("registered", change.registry()).field("writableSent", change.connections()).endObject())
                .now();
    }

    /** Why a command cannot run now, or null when it can. */
    private AdminResponse refusal(Server server) {
        if (runtime.isClosed()) {
            return AdminResponse.error(503, "shutting down");
        }
        if (server == null) {
            return AdminResponse.error(409, "nothing exported: no provider to take offline or online");
        }
        return null;
    }

    /** The drain's bound: {@code timeoutMs}, whole milliseconds, default 10 s. */
    static long timeoutMs(String given) {
        if (given == null) {
            return DEFAULT_TIMEOUT_MS;
        }
        long ms;
        try {
            ms = Long.parseLong(given.trim());
        } catch (NumberFormatException e) {
            ms = -1;
        }
        if (ms < 0 || ms > MAX_TIMEOUT_MS) {
            throw new IllegalArgumentException("timeoutMs: '" + given + "' (expected: whole milliseconds, 0.."
                    + MAX_TIMEOUT_MS + ")");
        }
        return ms;
    }
}
