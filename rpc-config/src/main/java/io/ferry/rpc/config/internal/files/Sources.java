package io.ferry.rpc.config.internal.files;

import io.ferry.rpc.option.Scope;
import io.ferry.rpc.config.option.Settings;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URL;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The two sources every bootstrap reads besides what it is given: {@code -D} system properties under a Ferry scope
 * ({@code -Dferry.consumer.timeout=2s}), which win over code, annotations and files, and a {@code ferry.properties}
 * on the class path, which only fills what they leave unset. Both use the properties names; a wrong key or value
 * under {@code ferry.} fails the bootstrap naming the property or the file and line (Ferry's few switches, such as
 * {@code ferry.transport.nio} and {@code ferry.serialization.fastpath}, aside). References are found by id, services by interface.
 */
public final class Sources {
    /** Ferry's switches that are system properties but not configuration. */
    private static final java.util.Set<String> SWITCHES = java.util.Set.of("ferry.transport.nio",
            "ferry.serialization.fastpath", "ferry.updateReadme", "ferry.updateSchema");

    private final Layer system;
    private final Layer classPath;

    private Sources(Layer system, Layer classPath) {
        this.system = system;
        this.classPath = classPath;
    }

    /** Reads {@code properties} (the system's) and {@code loader}'s {@code ferry.properties}, if it has one. */
    public static Sources of(Map<?, ?> properties, ClassLoader loader) {
        List<PropertiesReader.Entry> overrides = new ArrayList<>();
        new TreeMap<>(stringKeys(properties)).forEach((key, value) -> {
            if (key.startsWith("ferry.") && !SWITCHES.contains(key)) {
                overrides.add(new PropertiesReader.Entry(key, value, "-D" + key));
            }
        });
        return new Sources(new Layer(overrides), new Layer(classPathEntries(loader)));
    }

    /** Neither: for tests and for bootstraps that must not read the environment. */
    public static Sources none() {
        return new Sources(new Layer(List.of()), new Layer(List.of()));
    }

    private static Map<String, String> stringKeys(Map<?, ?> properties) {
        Map<String, String> strings = new LinkedHashMap<>();
        properties.forEach((k, v) -> strings.put(String.valueOf(k), String.valueOf(v)));
        return strings;
    }

    private static List<PropertiesReader.Entry> classPathEntries(ClassLoader loader) {
        URL url = loader == null ? null : loader.getResource("ferry.properties");
        if (url == null) {
            return List.of();
        }
        try (InputStream in = url.openStream()) {
            return PropertiesReader.read("ferry.properties (class path)", in);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + url + ": " + e.getMessage(), e);
        }
    }

    /** {@code -D} system properties: above code, annotations and files. */
    public Layer system() {
        return system;
    }

    /** The class path's {@code ferry.properties}: below them. */
    public Layer classPath() {
        return classPath;
    }

    /** One scope's settings from code, between the system's and the class path's. */
    public Settings merged(java.util.function.Function<Layer, Settings> scope, Settings code) {
        return Settings.layered(scope.apply(system), code, scope.apply(classPath));
    }

    /** Methods' settings by name from code, between the system's and the class path's. */
    public Map<String, Settings> mergedMethods(java.util.function.Function<Layer, Map<String, Settings>> scope,
                                               Map<String, Settings> code) {
        Map<String, Settings> merged = new LinkedHashMap<>();
        for (Map<String, Settings> source : List.of(scope.apply(system), code, scope.apply(classPath))) {
            source.forEach((name, settings) -> merged.computeIfAbsent(name, n -> new Settings()).fillFrom(settings));
        }
        return merged;
    }

    /** Provider defaults the protocol takes. */
    public static Settings forProtocol(Settings provider) {
        return provider.only(o -> o.scopes().contains(Scope.PROTOCOL));
    }

    /** Provider defaults every service takes. */
    public static Settings forServices(Settings provider) {
        return provider.only(o -> !o.scopes().contains(Scope.PROTOCOL));
    }

    /** What one source says, scope by scope; empty settings where it says nothing. */
    public static final class Layer {
        private final FileModel model = new FileModel();

        /** @throws IllegalArgumentException naming every key in error, one per line */
        private Layer(List<PropertiesReader.Entry> entries) {
            model.addAll(entries);
            for (FileModel.Member member : model.references.values()) {
                model.problems.attempt(() -> refuseDeclaring(member, "interface"));
            }
            for (FileModel.Member member : model.services.values()) {
                model.problems.attempt(() -> refuseDeclaring(member, member.ref != null ? "ref" : "class"));
            }
            for (FileModel.Scan scan : model.scans) {
                model.problems.add(new IllegalArgumentException(scan.where() + " (expected: set it in the file that "
                        + "declares the services; -D and the class path's ferry.properties only change options)"));
            }
            model.problems.throwIfAny();
        }

        /** These sources change what code and files declare; they do not declare references or services. */
        private static void refuseDeclaring(FileModel.Member member, String attribute) {
            String where = member.ref != null ? member.refWhere : member.typeWhere;
            if (member.type != null || member.ref != null) {
                throw new IllegalArgumentException(where + ": " + attribute + " (expected: set it where the "
                        + (attribute.equals("interface") ? "reference" : "service") + " is declared, in code or in "
                        + "its file; -D and the class path's ferry.properties only change options)");
            }
        }

        /** Reference ids this source sets options for, each with where it first did. */
        public Map<String, String> referenceIds() {
            Map<String, String> ids = new LinkedHashMap<>();
            model.references.values().forEach(m -> ids.put(m.id, m.firstSeen));
            return ids;
        }

        /** Service interfaces this source sets options for, each with where it first did. */
        public Map<String, String> serviceNames() {
            Map<String, String> names = new LinkedHashMap<>();
            model.services.values().forEach(m -> names.put(m.id, m.firstSeen));
            return names;
        }

        public Settings application() {
            return model.application;
        }

        public Settings registry() {
            return model.registry;
        }

        public Settings protocol() {
            return model.protocol;
        }

        public Settings ssl() {
            return model.ssl;
        }

        public Settings consumer() {
            return model.consumer;
        }

        /** The provider scope's defaults for the protocol and every service. */
        public Settings provider() {
            return model.provider;
        }

        /** The reference's settings, by its id (none for a reference without one). */
        public Settings reference(String id) {
            FileModel.Member member = id == null ? null : model.references.get(id);
            return member == null ? new Settings() : member.settings;
        }

        public Map<String, Settings> referenceMethods(String id) {
            FileModel.Member member = id == null ? null : model.references.get(id);
            return member == null ? Map.of() : member.methods;
        }

        /** The service's settings, by its interface's name. */
        public Settings service(String interfaceName) {
            FileModel.Member member = model.services.get(interfaceName);
            return member == null ? new Settings() : member.settings;
        }

        public Map<String, Settings> serviceMethods(String interfaceName) {
            FileModel.Member member = model.services.get(interfaceName);
            return member == null ? Map.of() : member.methods;
        }
    }
}
