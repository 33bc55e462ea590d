package io.ferry.rpc.remoting;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The services a provider answers for, keyed as Dubbo keys exporters: {@code [group/]interface[:version]}, with an
 * empty or "0.0.0" version meaning none. Thread-safe; services may be added and removed while serving.
 */
public final class ServiceTable {
    private final Map<String, ProviderService> services = new ConcurrentHashMap<>();
    private final Map<String, ServiceSchema> schemas = new ConcurrentHashMap<>();

    /** Adds a service; fails if one with the same interface, version and group is already there. */
    public void add(ProviderService service) {
        String key = key(service.schema().name(), service.version(), service.group());
        if (services.putIfAbsent(key, service) != null) {
            throw new IllegalStateException("service already exported: " + key);
        }
        schemas.putIfAbsent(service.schema().name(), service.schema());
    }

    public void remove(ProviderService service) {
        services.remove(key(service.schema().name(), service.version(), service.group()), service);
        String name = service.schema().name();
        if (services.values().stream().noneMatch(s -> s.schema().name().equals(name))) {
            schemas.remove(name);
        }
    }

    /** The schema of an exported interface (any version or group), or null: enough to decode arguments. */
    public ServiceSchema schema(String interfaceName) {
        return schemas.get(interfaceName);
    }

    /**
     * The schema of an export of this interface with this version (any group), or null: lets a provider refuse an
     * unknown version before decoding any argument, with the allow-list of the export asked for.
     */
    public ServiceSchema schema(String interfaceName, String version) {
        String wanted = version == null || "0.0.0".equals(version) ? "" : version;
        for (ProviderService s : services.values()) {
            String v = "0.0.0".equals(s.version()) ? "" : s.version();
            if (s.schema().name().equals(interfaceName) && v.equals(wanted)) {
                return s.schema();
            }
        }
        return null;
    }

    public ProviderService find(String interfaceName, String version, String group) {
        return services.get(key(interfaceName, version, group));
    }

    public boolean isEmpty() {
        return services.isEmpty();
    }

    static String key(String interfaceName, String version, String group) {
        StringBuilder key = new StringBuilder();
        if (group != null && !group.isEmpty()) {
            key.append(group).append('/');
        }
        key.append(interfaceName);
        if (version != null && !version.isEmpty() && !"0.0.0".equals(version)) {
            key.append(':').append(version);
        }
        return key.toString();
    }
}
