package io.ferry.rpc.remoting;

import java.util.Objects;

/**
 * One path of the admin port and the method it answers: reads are {@link Method#GET}, anything that changes the
 * process is {@link Method#POST} (a GET to it is refused 405, so a crawler or a prefetching browser changes
 * nothing). A path may have one route per method.
 * <pre>{@code
 * AdminRoute.get("/health/live", request -> AdminResponse.json(200, new JsonWriter().beginObject()
 *         .field("live", true).endObject()).now())
 * }</pre>
 *
 * @param method  the method it answers
 * @param path    the exact path, starting with {@code /}
 * @param handler what answers
 */
public record AdminRoute(Method method, String path, AdminHandler handler) {
    /** The methods the admin port serves. */
    public enum Method {
        GET, POST
    }

    public AdminRoute {
        Objects.requireNonNull(method, "method");
        Objects.requireNonNull(handler, "handler");
        if (path == null || !path.startsWith("/")) {
            throw new IllegalArgumentException("path: '" + path + "' (expected: an absolute path, such as /health)");
        }
    }

    /** A read: answers GET. */
    public static AdminRoute get(String path, AdminHandler handler) {
        return new AdminRoute(Method.GET, path, handler);
    }

    /** A command: answers POST only. */
    public static AdminRoute post(String path, AdminHandler handler) {
        return new AdminRoute(Method.POST, path, handler);
    }
}
