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
 * rather than set an option, and the registry {@code protocol} (the address's scheme, XML's
 * {@code <registry protocol>}). A key under {@code ferry.} that names no option of its scope is an error: a Dubbo
 * attribute or element Ferry refuses says why and what to write instead, as XML does ({@code ferry.provider.delay},
 * {@code ferry.config-center.address}, {@code ferry.protocols.dubbo.port}), and a Dubbo attribute whose value asks
 * for what Ferry does is taken with no effect ({@code ferry.provider.delay=-1}); another key is offered the nearest
 * valid one, if there is one.
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
                if (scope == Scope.REGISTRY && parts[1].equals("protocol")) {
                    return new PropertyKey(scope, "", "", null, "protocol"); // <registry protocol>: the scheme
                }
                return new PropertyKey(scope, "", "", option(key, where, scope, parts[1], PREFIX + head + "."),
                        parts[1]);
            }
            case "reference", "service" -> {
                return member(key, where, head, parts);
            }
            default -> throw unknownHead(key, where, head, parts);
        }
    }

    private static final List<String> HEADS = List.of("application", "registry", "protocol", "ssl", "provider",
            "consumer", "reference", "service");

    /**
     * A key whose scope is not Ferry's: Dubbo's elements Ferry refuses ({@code ferry.config-center.address}) say
     * why, Dubbo Boot's plural scopes ({@code ferry.protocols.dubbo.port}) say Ferry's one, and a misspelt scope
     * is offered the nearest valid key, if there is one.
     */
    private static IllegalArgumentException unknownHead(String key, String where, String head, String[] parts) {
        String reason = XmlVocabulary.UNSUPPORTED_ELEMENTS.get(head);
        String singular = head.endsWith("ies") ? head.substring(0, head.length() - 3) + "y"
                : head.endsWith("s") ? head.substring(0, head.length() - 1) : head;
        if (reason == null && !singular.equals(head)) {
            reason = XmlVocabulary.UNSUPPORTED_ELEMENTS.get(singular);
        }
        if (reason != null) {
            return new IllegalArgumentException(lead(where, key) + ": not supported by Ferry: " + reason);
        }
        if (!singular.equals(head) && HEADS.contains(singular) && !singular.equals("reference")
                && !singular.equals("service")) {
            String one = parts.length > 2 ? PREFIX + singular + "." + String.join(".",
                    java.util.Arrays.copyOfRange(parts, 2, parts.length)) : PREFIX + singular + ".<option>";
            return new IllegalArgumentException(lead(where, key) + ": not supported by Ferry: one " + singular
                    + " per application, set by " + PREFIX + singular + ".* (expected: " + one + ")");
        }
        String near = DidYouMean.nearest(head, HEADS);
        String suggested = near == null ? null : PREFIX + near + key.substring(PREFIX.length() + head.length());
        if (suggested != null && !isValid(suggested)) {
            suggested = null; // never offer a key that is wrong too
        }
        return new IllegalArgumentException(lead(where, key) + ": unknown key" + (suggested == null ? " (expected: "
                + "ferry.<scope>.<option>, the scope one of " + HEADS + ")" : " (did you mean " + suggested + "?)"));
    }

    private static boolean isValid(String key) {
        try {
            parse(key, "");
            return true;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    /**
     * Whether it names what is configured rather than setting an option: a reference's interface, a service's
     * class or ref, the registry's protocol (the address's scheme).
     */
    public boolean structural() {
        return option == null && switch (scope) {
            case REFERENCE -> attribute.equals("interface");
            case SERVICE -> attribute.equals("class") || attribute.equals("ref");
            case REGISTRY -> attribute.equals("protocol");
            default -> false;
        };
    }

    /**
     * What Ferry says of a Dubbo attribute that is no option here and was taken for a value that asks for what Ferry
     * does ({@code ferry.provider.delay=-1}), or null for any other key.
     */
    XmlVocabulary.Dubbo dubbo() {
        return option == null && !structural() ? XmlVocabulary.dubbo(XmlVocabulary.Element.byTag(scope.key()),
                attribute) : null;
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
        String spelled = XmlVocabulary.ALIASES.getOrDefault(name, name);
        for (Option<?> option : Options.all()) {
            // case aside, so that the builders' spelling (loadBalance) reads as the file's (loadbalance)
            if (option.fileName().equalsIgnoreCase(spelled) && option.scopes().contains(scope)) {
                return option;
            }
        }
        XmlVocabulary.Dubbo dubbo = XmlVocabulary.dubbo(XmlVocabulary.Element.byTag(scope.key()), name);
        if (dubbo != null && !dubbo.taken().isEmpty()) {
            return null; // taken for some values: the value is checked where it is set (FileModel)
        }
        if (dubbo != null) {
            throw new IllegalArgumentException(lead(where, key) + ": not supported by Ferry: " + dubbo.reason());
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
        String article = "aeiou".indexOf(scope.key().charAt(0)) >= 0 ? "an " : "a ";
        List<String> elsewhere = new ArrayList<>();
        for (Option<?> option : Options.all()) {
            if (option.fileName().equalsIgnoreCase(last)) {
                option.scopes().forEach(s -> elsewhere.add(s.key()));
            }
        }
        if (!elsewhere.isEmpty()) {
            // an option of another scope: say whose, as XML says "it is of <consumer>, <reference>"
            return new IllegalArgumentException(lead(where, key) + ": not an option of " + article + scope.key()
                    + " (it is of " + String.join(", ", elsewhere) + ")");
        }
        return new IllegalArgumentException(lead(where, key) + ": no such option for " + article + scope.key()
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
