package io.ferry.rpc.registry;

/**
 * What a consumer looks for: an interface, a version and a group. An empty version and "0.0.0" both mean none;
 * a group of "*" matches every group.
 */
public record ServiceKey(String interfaceName, String version, String group) {
    public ServiceKey {
        version = normalize(version);
        group = group == null ? "" : group;
    }

    public static String normalize(String version) {
        return version == null || version.isEmpty() || "0.0.0".equals(version) ? "" : version;
    }

    /** Whether a provider of this interface with this version and group serves this key. */
    public boolean matches(String providerVersion, String providerGroup) {
        return version.equals(normalize(providerVersion))
                && ("*".equals(group) || group.equals(providerGroup == null ? "" : providerGroup));
    }
}
