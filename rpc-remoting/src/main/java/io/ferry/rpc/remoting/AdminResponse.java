package io.ferry.rpc.remoting;

import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * What an admin route answers: a status, a media type and a body, sent as UTF-8 with its length.
 *
 * @param status      an HTTP status, 100..599
 * @param contentType the body's media type, {@code application/json; charset=utf-8} for {@link #json}
 * @param body        the body; empty for none
 */
public record AdminResponse(int status, String contentType, String body) {
    public static final String JSON = "application/json; charset=utf-8";
    public static final String TEXT = "text/plain; charset=utf-8";
    public static final String HTML = "text/html; charset=utf-8";

    public AdminResponse {
        if (status < 100 || status > 599) {
            throw new IllegalArgumentException("status: " + status + " (expected: an HTTP status, 100..599)");
        }
        Objects.requireNonNull(contentType, "contentType");
        Objects.requireNonNull(body, "body");
    }

    /** A JSON document; fails when {@code document} left a container open. */
    public static AdminResponse json(int status, JsonWriter document) {
        return new AdminResponse(status, JSON, document.json());
    }

    /** {@code {"error": message}} with {@code status}: what every refusal of the admin port looks like. */
    public static AdminResponse error(int status, String message) {
        return json(status, new JsonWriter().beginObject().field("error", message).endObject());
    }

    /** This answer, already complete: what a handler that needs no waiting returns. */
    public CompletionStage<AdminResponse> now() {
        return CompletableFuture.completedFuture(this);
    }
}
