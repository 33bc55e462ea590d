package io.ferry.rpc.benchmark.suite.systems;

import java.util.ArrayList;
import java.util.List;

/**
 * A system name with optional system properties after an {@code @}, several joined by {@code +}:
 * {@code ferry@ferry.protocol.dispatcher=direct} is Ferry with that property set in its provider JVM and in the
 * benchmark fork. Two variants of one system in one suite run give a same-run A/B comparison, which separate runs
 * on a noisy machine cannot.
 */
public record Variant(String system, List<String> properties) {
    public static Variant parse(String name) {
        int at = name.indexOf('@');
        if (at < 0) {
            return new Variant(name, List.of());
        }
        List<String> properties = new ArrayList<>();
        for (String pair : name.substring(at + 1).split("\\+")) {
            if (!pair.contains("=")) {
                throw new IllegalArgumentException("system " + name + ": expected name=value after @, not " + pair);
            }
            properties.add("-D" + pair);
        }
        return new Variant(name.substring(0, at), List.copyOf(properties));
    }
}
