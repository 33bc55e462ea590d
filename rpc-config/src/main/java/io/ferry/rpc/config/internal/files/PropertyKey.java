package io.ferry.rpc.config.internal.files;

import io.ferry.rpc.config.option.Options;
import io.ferry.rpc.option.Scope;
import io.ferry.rpc.option.Option;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * One key of {@code ferry.properties} (or a {@code -D} system property) understood against the option table:
 *
 * <pre>
 *   ferry.application.name                     ferry.registry.address
 *   ferry.protocol.port                        ferry.provider.timeout          ferry.consumer.timeout
 *   ferry.ssl.server-key-cert-chain-path
 *   ferry.reference.&lt;id&gt;.connections           ferry.reference.&lt;id&gt;.method.&lt;name&gt;.timeout
 *   ferry.service.&lt;interface&gt;.threads          ferry.service.&lt;interface&gt;.method.&lt;name&gt;.timeout
 * </pre>
 * A reference also takes {@code interface}, and a service {@code class} (its implementation, with a no-arg
 * constructor) or {@code ref} (the id of an implementation given to the bootstrap): they name what is configured
 * rather than set an option. A key under {@code ferry.} that names no
 * option of its scope is an error that suggests the nearest valid key.
 *
 * @param scope     where the option is set
 * @param id        the reference's id or the service's interface; empty for the wider scopes
 * @param method    the method's name for the method scope, else empty
 * @param option    the option, or null for {@code interface} / {@code class}
 * @param attribute the last segment of the key
 */
public record PropertyKey(Scope scope, String id, String method, Option<?> option, String attribute) {
    public static final String PREFIX = "ferry.";
    private static final Set<String> STRUCTURAL = Set.of("interface", "class", "ref");

    /** Whether a key is Ferry's at all (other keys in the file are not checked). */
    public static boolean isFerryKey(String key) {
        return key.startsWith(PREFIX);
    }

    /**
     * Reads a key found at {@code where}.
     *
     * @throws IllegalArgumentException for a key under {@code ferry.} that names no option, with a suggestion
     */
    public static PropertyKey parse(String key, String where) {
        String[] parts = key.substring(PREFIX.length()).split("\\.", -1);
        String head = parts[0];
        switch (head) {
            case "application", "registry", "protocol", "ssl", "provider", "consumer" -> {
                Scope scope = Scope.valueOf(head.toUpperCase(java.util.Locale.ROOT));
                if (parts.length != 2) {
                    throw unknown(key, where, scope, PREFIX + head + ".");
                }
                return new PropertyKey(scope, "", "", option(key, where, scope, parts[1], PREFIX + head + "."),
                        parts[1]);
            }
            case "reference", "service" -> {
                return member(key, where, head, parts);
            }
            default -> throw new IllegalArgumentException(lead(where, key) + ": unknown key"
                    + suggestion(head, List.of("application", "registry", "protocol", "ssl", "provider", "consumer",
                    "reference", "service"), PREFIX, key.substring(PREFIX.length() + head.length())));
        }
    }

    /** {@code reference.<id>...} (the id has no dots) or {@code service.<interface>...} (the interface has). */
    private static PropertyKey member(String key, String where, String head, String[] parts) {
        Scope scope = head.equals("reference") ? Scope.REFERENCE : Scope.SERVICE;
        int methodAt = -1;
        for (int i = 2; i < parts.length - 2; i++) {
            if (parts[i].equals("method")) {
                methodAt = i;
            }
        }
        int idEnd = methodAt >= 0 ? methodAt : parts.length - 1;
        if (idEnd < 2 || (scope == Scope.REFERENCE && idEnd != 2)) {
            throw new IllegalArgumentException(lead(where, key) + ": expected ferry." + head + ".<"
                    + (scope == Scope.REFERENCE ? "id" : "interface") + ">.<option>");
        }
        String id = String.join(".", java.util.Arrays.copyOfRange(parts, 1, idEnd));
        String last = parts[parts.length - 1];
        String base = PREFIX + head + "." + id + ".";
        if (methodAt >= 0) {
            if (methodAt != parts.length - 3) {
                throw new IllegalArgumentException(lead(where, key) + ": expected " + base
                        + "method.<name>.<option>");
            }
            String method = parts[methodAt + 1];
            return new PropertyKey(Scope.METHOD, id, method,
                    option(key, where, Scope.METHOD, last, base + "method." + method + "."), last);
        }
        boolean structural = scope == Scope.REFERENCE ? last.equals("interface")
                : STRUCTURAL.contains(last) && !last.equals("interface");
        if (structural) {
            return new PropertyKey(scope, id, "", null, last);
        }
        return new PropertyKey(scope, id, "", option(key, where, scope, last, base), last);
    }

    private static Option<?> option(String key, String where, Scope scope, String name, String base) {
        for (Option<?> option : Options.all()) {
            // case aside, so that the builders' spelling (loadBalance) reads as the file's (loadbalance)
            if (option.fileName().equalsIgnoreCase(name) && option.scopes().contains(scope)) {
                return option;
            }
        }
        throw unknown(key, where, scope, base);
    }

    private static IllegalArgumentException unknown(String key, String where, Scope scope, String base) {
        List<String> names = new ArrayList<>();
        for (Option<?> option : Options.all()) {
            if (option.scopes().contains(scope)) {
                names.add(option.fileName());
            }
        }
        if (scope == Scope.REFERENCE) {
            names.add("interface");
        } else if (scope == Scope.SERVICE) {
            names.add("class");
            names.add("ref");
        }
        String last = key.substring(key.lastIndexOf('.') + 1);
        return new IllegalArgumentException(lead(where, key) + ": no such option for a " + scope.key()
                + suggestion(last, names, base, ""));
    }

    /** " (did you mean ferry.consumer.timeout?)" for the nearest name within a few edits, else nothing. */
    private static String suggestion(String typed, List<String> names, String before, String after) {
        String best = DidYouMean.nearest(typed, names);
        return best == null ? "" : " (did you mean " + before + best + after + "?)";
    }

    /** "file:3: ferry.x.y", or just "-Dferry.x.y" when the key is where it came from. */
    private static String lead(String where, String key) {
        return where.equals("-D" + key) ? where : prefix(where) + key;
    }

    private static String prefix(String where) {
        return where.isEmpty() ? "" : where + ": ";
    }
}
