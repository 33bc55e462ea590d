package io.ferry.rpc.config;

import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/** The references a file declared, by id: their proxies and their configs. Thread-safe. */
final class DeclaredReferences {
    private final Map<String, Object> proxies = new ConcurrentHashMap<>();
    private final Map<String, ReferenceConfig<?>> configs = new ConcurrentHashMap<>();

    void add(String id, ReferenceConfig<?> config, Object proxy) {
        configs.put(id, config);
        proxies.put(id, proxy);
    }

    Set<String> ids() {
        return proxies.keySet();
    }

    <T> T proxy(String id, Class<T> type) {
        return type.cast(known(proxies, id));
    }

    ReferenceConfig<?> config(String id) {
        return known(configs, id);
    }

    private static <V> V known(Map<String, V> byId, String id) {
        V found = byId.get(id);
        if (found == null) {
            throw new IllegalArgumentException("reference: '" + id + "' (expected: one of " + byId.keySet() + ")");
        }
        return found;
    }
}
