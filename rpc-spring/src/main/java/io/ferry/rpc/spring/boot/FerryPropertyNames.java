package io.ferry.rpc.spring.boot;

import io.ferry.rpc.config.option.Options;
import io.ferry.rpc.option.Option;
import io.ferry.rpc.option.Scope;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName.Form;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Boot's names of Ferry's properties to Ferry's own: {@code ferry.consumer.load-balance}, {@code ferry.consumer
 * .loadBalance} and the environment's {@code FERRY_CONSUMER_LOADBALANCE} are all {@code ferry.consumer.loadbalance},
 * the option table's name, as Boot's relaxed binding matches a property to a field. An option matches by its file
 * name ({@code loadbalance}, {@code qos-enable}) or its builder name ({@code loadBalance}, {@code payloadBytes}),
 * in any case and with or without dashes. Names under the scope that match no option are left as written, for
 * Ferry's reader to refuse with the nearest valid name.
 *
 * <pre>
 *   ferry.&lt;scope&gt;.&lt;option&gt;                      application, registry, protocol, ssl, provider, consumer
 *   ferry.reference.&lt;id&gt;.&lt;option&gt;                and .method.&lt;name&gt;.&lt;option&gt;; also .interface
 *   ferry.service.&lt;interface&gt;.&lt;option&gt;           and .method.&lt;name&gt;.&lt;option&gt;; also .class, .ref
 * </pre>
 * A service's interface keeps its dots and case ({@code ferry.service.com.acme.Greeter.timeout}, or in brackets,
 * {@code ferry.service[com.acme.Greeter].timeout}); an environment variable cannot spell one.
 */
final class FerryPropertyNames {
    static final ConfigurationPropertyName PREFIX = ConfigurationPropertyName.of("ferry");
    private static final Map<Scope, Map<String, String>> NAMES = names();

    private FerryPropertyNames() {
    }

    private static Map<Scope, Map<String, String>> names() {
        Map<Scope, Map<String, String>> names = new EnumMap<>(Scope.class);
        for (Scope scope : Scope.values()) {
            names.put(scope, new HashMap<>());
        }
        for (Option<?> option : Options.all()) {
            for (Scope scope : option.scopes()) {
                names.get(scope).putIfAbsent(uniform(option.fileName()), option.fileName());
                names.get(scope).putIfAbsent(uniform(option.name()), option.fileName());
            }
        }
        names.get(Scope.REFERENCE).put("interface", "interface");
        names.get(Scope.SERVICE).put("class", "class");
        names.get(Scope.SERVICE).put("ref", "ref");
        return names;
    }

    /** A name as Boot compares names: lower case, letters and digits only. */
    static String uniform(String name) {
        return name.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]", "");
    }

    /** The option's name in Ferry's files for {@code written} at {@code scope}, or null when none matches. */
    static String option(Scope scope, String written) {
        return NAMES.get(scope).get(uniform(written));
    }

    /**
     * Ferry's key for a property name under {@code ferry}: the scope and option names in Ferry's spelling, ids,
     * interfaces and method names as written.
     */
    static String ferryKey(ConfigurationPropertyName name) {
        int n = name.getNumberOfElements();
        List<String> parts = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            parts.add(name.getElement(i, Form.ORIGINAL));
        }
        if (n < 3) {
            return String.join(".", parts);
        }
        String head = name.getElement(1, Form.UNIFORM);
        Scope scope = switch (head) {
            case "application", "registry", "protocol", "ssl", "provider", "consumer" ->
                    Scope.valueOf(head.toUpperCase(Locale.ROOT));
            case "reference" -> Scope.REFERENCE;
            case "service" -> Scope.SERVICE;
            default -> null;
        };
        if (scope == null) {
            return String.join(".", parts); // not Ferry's scope: as written (ferry.config-center), for the message
        }
        parts.set(1, head);
        boolean member = scope == Scope.REFERENCE || scope == Scope.SERVICE;
        if (member && n >= 6 && name.getElement(n - 3, Form.UNIFORM).equals("method")) {
            parts.set(n - 3, "method");
            scope = Scope.METHOD;
        }
        String option = option(scope, parts.get(n - 1));
        if (option != null && (member || n == 3)) {
            parts.set(n - 1, option);
        }
        return String.join(".", parts);
    }
}
