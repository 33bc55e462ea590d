package io.ferry.rpc.spring.boot;

import io.ferry.rpc.config.option.Options;
import io.ferry.rpc.option.Option;
import io.ferry.rpc.option.Scope;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.StringJoiner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code META-INF/spring-configuration-metadata.json}, with which IDEs complete {@code ferry.*} keys in
 * application.properties and .yml and show their docs, is generated from the option table: this test fails when
 * the committed file is stale, and rewrites it when run with {@code -Dferry.updateMetadata=true}.
 */
class ConfigurationMetadataTest {
    private static final Path FILE = Path.of("src/main/resources/META-INF/spring-configuration-metadata.json");
    private static final List<Scope> SCOPES = List.of(Scope.APPLICATION, Scope.REGISTRY, Scope.PROTOCOL, Scope.SSL,
            Scope.PROVIDER, Scope.CONSUMER);
    private static final Map<Scope, String> GROUPS = Map.of(
            Scope.APPLICATION, "This application, as registered, and its admin port.",
            Scope.REGISTRY, "The registry (ZooKeeper) where services are registered and references find providers.",
            Scope.PROTOCOL, "The port services are exported on: the dubbo protocol's server, its threads and limits.",
            Scope.SSL, "TLS certificates and keys, for providers and consumers.",
            Scope.PROVIDER, "Defaults of every exported service (and of the protocol, for the options it takes).",
            Scope.CONSUMER, "Defaults of every reference, and the consumer's connections.");

    @Test
    void theCommittedMetadataIsGeneratedFromTheOptionTable() throws IOException {
        String expected = json();
        if (Boolean.getBoolean("ferry.updateMetadata")) {
            Files.writeString(FILE, expected, StandardCharsets.UTF_8);
            return;
        }
        assertEquals(expected, Files.readString(FILE, StandardCharsets.UTF_8),
                FILE + " is stale: run this test with -Dferry.updateMetadata=true");
    }

    @Test
    void everyKeyTheMetadataOffersReachesItsOption() {
        int checked = 0;
        for (Scope scope : SCOPES) {
            for (Option<?> option : options(scope)) {
                String offered = "ferry." + scope.key() + "." + BootPropertiesTest.kebab(option.fileName());
                assertEquals("ferry." + scope.key() + "." + option.fileName(),
                        FerryPropertyNames.ferryKey(ConfigurationPropertyName.of(offered)), offered);
                checked++;
            }
        }
        assertTrue(checked > 50, "the table's options were all offered: " + checked);
    }

    private static List<Option<?>> options(Scope scope) {
        return Options.all().stream().filter(o -> o.scopes().contains(scope)).toList();
    }

    /** The metadata, in the order of the scopes and of the table. */
    static String json() {
        List<Map<String, Object>> groups = new ArrayList<>();
        List<Map<String, Object>> properties = new ArrayList<>();
        List<Map<String, Object>> hints = new ArrayList<>();
        groups.add(entry("name", "ferry", "description", "Ferry, the Dubbo-compatible RPC framework: the option "
                + "table's keys, with the names of Ferry's properties files (Dubbo's names where Dubbo has one)."));
        for (Scope scope : SCOPES) {
            groups.add(entry("name", "ferry." + scope.key(), "description", GROUPS.get(scope)));
            for (Option<?> option : options(scope)) {
                String name = "ferry." + scope.key() + "." + BootPropertiesTest.kebab(option.fileName());
                Map<String, Object> property = entry("name", name, "type", type(option), "description",
                        description(option), "sourceType", Options.class.getName());
                Object defaultValue = defaultValue(option);
                if (defaultValue != null) {
                    property.put("defaultValue", defaultValue);
                }
                properties.add(property);
                if (option.type().isEnum()) {
                    List<Object> values = new ArrayList<>();
                    for (Object constant : option.type().getEnumConstants()) {
                        values.add(entry("value", ((Enum<?>) constant).name().toLowerCase(Locale.ROOT)));
                    }
                    hints.add(entry("name", name, "values", values));
                }
            }
        }
        properties.add(entry("name", "ferry.reference", "type", "java.util.Map<java.lang.String,java.lang.String>",
                "description", "References, by id: ferry.reference.<id>.interface names its interface; "
                        + "ferry.reference.<id>.<option> sets " + names(Scope.REFERENCE)
                        + "; ferry.reference.<id>.method.<name>.<option> sets " + names(Scope.METHOD)
                        + " for one method. Each reference is a bean of its interface's type."));
        properties.add(entry("name", "ferry.service", "type", "java.util.Map<java.lang.String,java.lang.String>",
                "description", "Services, by interface (ferry.service.com.acme.Greeter.<key>, or "
                        + "ferry.service[com.acme.Greeter].<key>): .ref names the bean that implements it, or .class "
                        + "a class with a public no-argument constructor; .<option> sets " + names(Scope.SERVICE)
                        + "; .method.<name>.<option> sets " + names(Scope.METHOD) + " for one method."));
        properties.add(entry("name", "ferry.scan.base-packages", "type", "java.util.List<java.lang.String>",
                "description", "Packages whose @RpcExport classes become beans, and so are exported, without "
                        + "@Component: Dubbo's dubbo.scan.base-packages."));
        Map<String, Object> all = entry("groups", groups, "properties", properties, "hints", hints);
        StringBuilder out = new StringBuilder();
        write(out, all, "");
        return out.append('\n').toString();
    }

    private static String names(Scope scope) {
        StringJoiner names = new StringJoiner(", ");
        options(scope).forEach(o -> names.add(BootPropertiesTest.kebab(o.fileName())));
        return names.toString();
    }

    private static String type(Option<?> option) {
        Class<?> type = option.type();
        return type == Duration.class || type == Integer.class || type == Long.class || type == Boolean.class
                ? type.getName() : String.class.getName();
    }

    private static String description(Option<?> option) {
        StringBuilder text = new StringBuilder(Character.toUpperCase(option.doc().charAt(0))
                + option.doc().substring(1) + ".");
        if (option.type() == Duration.class) {
            text.append(" Milliseconds, or with a unit: 500ms, 2s, 1m, 1h.");
        }
        if (!option.range().isEmpty()) {
            text.append(" Range: ").append(option.range()).append(option.unit().isEmpty() ? "" : " " + option.unit())
                    .append('.');
        }
        if (defaultValue(option) == null && !option.defaultText().equals("none")) {
            text.append(" Default: ").append(option.defaultText()).append('.');
        }
        if (!option.dubboName().isEmpty()) {
            text.append(" Dubbo: ").append(option.dubboName()).append('.');
        }
        return text.toString();
    }

    private static Object defaultValue(Option<?> option) {
        Object value = option.defaultValue();
        if (value instanceof Duration d) {
            return d.toMillis() + "ms";
        }
        if (value instanceof Enum<?> e) {
            return e.name().toLowerCase(Locale.ROOT);
        }
        return value;
    }

    private static Map<String, Object> entry(Object... keysAndValues) {
        Map<String, Object> map = new LinkedHashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            map.put((String) keysAndValues[i], keysAndValues[i + 1]);
        }
        return map;
    }

    /** JSON, two spaces a level, an object's keys in order. */
    private static void write(StringBuilder out, Object value, String indent) {
        if (value instanceof Map<?, ?> map) {
            out.append("{\n");
            int i = 0;
            for (Map.Entry<?, ?> e : map.entrySet()) {
                out.append(indent).append("  ");
                string(out, (String) e.getKey());
                out.append(": ");
                write(out, e.getValue(), indent + "  ");
                out.append(++i < map.size() ? ",\n" : "\n");
            }
            out.append(indent).append('}');
        } else if (value instanceof List<?> list) {
            if (list.isEmpty()) {
                out.append("[]");
                return;
            }
            out.append("[\n");
            for (int i = 0; i < list.size(); i++) {
                out.append(indent).append("  ");
                write(out, list.get(i), indent + "  ");
                out.append(i + 1 < list.size() ? ",\n" : "\n");
            }
            out.append(indent).append(']');
        } else if (value instanceof String s) {
            string(out, s);
        } else {
            out.append(value); // a number or a boolean
        }
    }

    private static void string(StringBuilder out, String s) {
        out.append('"');
        for (char c : s.toCharArray()) {
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                default -> {
                    if (c < 0x20) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        out.append('"');
    }
}
