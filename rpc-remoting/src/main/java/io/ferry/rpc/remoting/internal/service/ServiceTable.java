package io.ferry.rpc.remoting.internal.service;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The services a provider answers for, by interface, then version ("" and "0.0.0" both meaning none), then group
 * ("" for none): the parts of Dubbo's exporter key {@code [group/]interface[:version]}. Lookups on the request
 * path build no strings and scan nothing. Thread-safe; services may be added and removed while serving.
 */
public final class ServiceTable {
    /** interface → version → group → service. */
    private final Map<String, Map<String, Map<String, ProviderService>>> services = new ConcurrentHashMap<>();

    /** Adds a service; fails if one with the same interface, version and group is already there. */
    public synchronized void add(ProviderService service) {
        Map<String, ProviderService> groups = services
                .computeIfAbsent(service.schema().name(), i -> new ConcurrentHashMap<>())
                .computeIfAbsent(version(service.version()), v -> new ConcurrentHashMap<>());
        if (groups.putIfAbsent(group(service.group()), service) != null) {
            throw new IllegalStateException("service already exported: " + describe(service));
        }
    }

    public synchronized void remove(ProviderService service) {
        Map<String, Map<String, ProviderService>> versions = services.get(service.schema().name());
        if (versions == null) {
            return;
        }
        Map<String, ProviderService> groups = versions.get(version(service.version()));
        if (groups != null && groups.remove(group(service.group()), service) && groups.isEmpty()) {
            versions.remove(version(service.version()));
            if (versions.isEmpty()) {
                services.remove(service.schema().name());
            }
        }
    }

    /** The schema of an exported interface (any version or group), or null: enough to decode arguments. */
    public ServiceSchema schema(String interfaceName) {
        Map<String, Map<String, ProviderService>> versions = services.get(interfaceName);
        if (versions == null) {
            return null;
        }
        for (Map<String, ProviderService> groups : versions.values()) {
            for (ProviderService s : groups.values()) {
                return s.schema();
            }
        }
        return null;
    }

    /**
     * The schema of an export of this interface with this version (any group), or null: lets a provider refuse an
     * unknown version before decoding any argument, with the allow-list of the export asked for.
     */
    public ServiceSchema schema(String interfaceName, String version) {
        Map<String, ProviderService> groups = groups(interfaceName, version);
        if (groups != null) {
            for (ProviderService s : groups.values()) {
                return s.schema();
            }
        }
        return null;
    }

    public ProviderService find(String interfaceName, String version, String group) {
        Map<String, ProviderService> groups = groups(interfaceName, version);
        return groups == null ? null : groups.get(group(group));
    }

    /** Every exported service, for diagnostics. */
    public List<ProviderService> all() {
        return services.values().stream().flatMap(v -> v.values().stream()).flatMap(g -> g.values().stream())
                .toList();
    }

    public boolean isEmpty() {
        return services.isEmpty();
    }

    private Map<String, ProviderService> groups(String interfaceName, String version) {
        Map<String, Map<String, ProviderService>> versions = services.get(interfaceName);
        return versions == null ? null : versions.get(version(version));
    }

    private static String version(String version) {
        return version == null || "0.0.0".equals(version) ? "" : version;
    }

    private static String group(String group) {
        return group == null ? "" : group;
    }

    private static String describe(ProviderService s) {
        String v = version(s.version());
        String g = group(s.group());
        return (g.isEmpty() ? "" : g + "/") + s.schema().name() + (v.isEmpty() ? "" : ":" + v);
    }
}
