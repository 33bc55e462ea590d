package io.ferry.rpc.remoting.internal.admin;

import io.ferry.rpc.remoting.AdminRoute;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/** The admin port's routes by path, then by method. Immutable once built. */
public final class AdminRouter {
    private final Map<String, Map<AdminRoute.Method, AdminRoute>> byPath = new TreeMap<>();

    /** @throws IllegalArgumentException when two routes share a path and a method */
    public AdminRouter(List<AdminRoute> routes) {
        for (AdminRoute route : routes) {
            AdminRoute before = byPath.computeIfAbsent(route.path(), p -> new EnumMap<>(AdminRoute.Method.class))
                    .putIfAbsent(route.method(), route);
            if (before != null) {
                throw new IllegalArgumentException("route: " + route.method() + " " + route.path()
                        + " given twice (expected: one route per path and method)");
            }
        }
    }

    /** The route for this method and path; null when there is none. */
    AdminRoute find(String method, String path) {
        Map<AdminRoute.Method, AdminRoute> methods = byPath.get(path);
        if (methods == null) {
            return null;
        }
        for (Map.Entry<AdminRoute.Method, AdminRoute> e : methods.entrySet()) {
            if (e.getKey().name().equals(method)) {
                return e.getValue();
            }
        }
        return null;
    }

    /** The methods {@code path} answers, for an Allow header ("GET, POST"); empty when the path is unknown. */
    String allowed(String path) {
        Map<AdminRoute.Method, AdminRoute> methods = byPath.get(path);
        return methods == null ? "" : methods.keySet().stream().map(Enum::name).collect(Collectors.joining(", "));
    }

    /** "GET /health/live, POST /offline, ...", for the start-up line. */
    public String describe() {
        return byPath.values().stream().flatMap(m -> m.values().stream())
                .map(r -> r.method() + " " + r.path()).collect(Collectors.joining(", "));
    }
}
