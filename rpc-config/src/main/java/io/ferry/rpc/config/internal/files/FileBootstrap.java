package io.ferry.rpc.config.internal.files;

import io.ferry.rpc.config.ApplicationConfig;
import io.ferry.rpc.config.ConsumerConfig;
import io.ferry.rpc.config.ProtocolConfig;
import io.ferry.rpc.config.ReferenceConfig;
import io.ferry.rpc.config.RegistryConfig;
import io.ferry.rpc.config.ServiceConfig;
import io.ferry.rpc.config.option.Settings;

import java.lang.reflect.InvocationTargetException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Reads {@code ferry.xml} or a {@code ferry.properties} file, with {@code -D} system properties of the same names
 * overriding it, into the typed configs a {@code Ferry} is built from. Every mistake names the file and line (or the system property),
 * the key or option, and what was expected.
 */
public final class FileBootstrap {
    /** What a file describes, ready to build. */
    public record Loaded(ApplicationConfig application, RegistryConfig registry, ProtocolConfig protocol,
                         ConsumerConfig consumer, List<ServiceConfig<?>> services,
                         Map<String, ReferenceConfig<?>> references) {
    }

    private FileBootstrap() {
    }

    /** {@code overrides}: system properties; those under a Ferry scope ({@code ferry.consumer.*}, ...) win. */
    public static Loaded fromProperties(Path file, Map<String, String> overrides) {
        return fromProperties(file, overrides, Map.of());
    }

    /** {@code beans}: implementations that services name by {@code ref}, by id. */
    public static Loaded fromProperties(Path file, Map<String, String> overrides, Map<String, Object> beans) {
        FileModel model = new FileModel();
        model.addAll(PropertiesReader.read(file));
        return bind(withOverrides(model, overrides), beans);
    }

    /**
     * Reads {@code ferry.xml}. Below it, the {@code ferry.properties} of {@code classPath} (when it has one) fills
     * what the file leaves unset; above it, system properties under a Ferry scope win.
     */
    public static Loaded fromXml(Path file, ClassLoader classPath, Map<String, String> overrides,
                                 Map<String, Object> beans) {
        FileModel model = XmlReader.read(file);
        FileModel lower = new FileModel();
        lower.addAll(classPathDefaults(classPath));
        model.fillFrom(lower);
        return bind(withOverrides(model, overrides), beans);
    }

    private static List<PropertiesReader.Entry> classPathDefaults(ClassLoader loader) {
        java.net.URL url = loader.getResource("ferry.properties");
        if (url == null) {
            return List.of();
        }
        try (java.io.InputStream in = url.openStream()) {
            return PropertiesReader.read("ferry.properties (class path)", in);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException("cannot read " + url + ": " + e.getMessage(), e);
        }
    }

    private static FileModel withOverrides(FileModel model, Map<String, String> overrides) {
        List<PropertiesReader.Entry> fromSystem = new ArrayList<>();
        new TreeMap<>(overrides).forEach((key, value) -> {
            if (isOverride(key)) {
                fromSystem.add(new PropertiesReader.Entry(key, value, "-D" + key));
            }
        });
        model.addAll(fromSystem);
        return model;
    }

    /** System properties under the scopes a file has; others under {@code ferry.} are Ferry's own switches. */
    private static boolean isOverride(String key) {
        for (String scope : List.of("application", "registry", "protocol", "provider", "consumer", "reference",
                "service")) {
            if (key.startsWith("ferry." + scope + ".")) {
                return true;
            }
        }
        return false;
    }

    private static Loaded bind(FileModel model, Map<String, Object> beans) {
        List<Settings> serviceSettings = new ArrayList<>();
        model.services.values().forEach(member -> serviceSettings.add(member.settings));
        Binder.placeProviderDefaults(model.provider, model.protocol, serviceSettings);
        List<ServiceConfig<?>> services = new ArrayList<>();
        for (FileModel.Member member : model.services.values()) {
            services.add(service(member, implementation(member, model, beans)));
        }
        Map<String, ReferenceConfig<?>> references = new LinkedHashMap<>();
        for (FileModel.Member member : model.references.values()) {
            references.put(member.id, reference(member));
        }
        return new Loaded(Binder.application(model.application), Binder.registry(model.registry),
                Binder.protocol(model.protocol), Binder.consumer(model.consumer), services, references);
    }

    private static ReferenceConfig<?> reference(FileModel.Member member) {
        if (member.type == null) {
            throw new IllegalArgumentException(member.firstSeen + ": reference '" + member.id
                    + "' has no interface (expected: ferry.reference." + member.id + ".interface=com.acme.Api)");
        }
        Class<?> type = load(member.type, member.typeWhere);
        ReferenceConfig.Builder<?> b = ReferenceConfig.builder(type);
        Binder.reference(member, b);
        return built(b::build, member.firstSeen);
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static ServiceConfig<?> service(FileModel.Member member, Object instance) {
        Class<?> type = load(member.id, member.firstSeen);
        if (!type.isInstance(instance)) {
            throw new IllegalArgumentException((member.ref != null ? member.refWhere + ": ref " + member.ref + ", a "
                    + instance.getClass().getName() : member.typeWhere + ": class " + member.type)
                    + " (expected: an implementation of " + type.getName() + ")");
        }
        ServiceConfig.Builder b = ServiceConfig.builder((Class) type, instance);
        Binder.service(member, b);
        return built(b::build, member.firstSeen);
    }

    /** The service's implementation: a bean given in code or declared in the file, or a new instance of its class. */
    private static Object implementation(FileModel.Member member, FileModel model, Map<String, Object> beans) {
        if (member.ref != null) {
            Object given = beans.get(member.ref);
            if (given != null) {
                return given;
            }
            FileModel.Bean declared = model.beans.get(member.ref);
            if (declared == null) {
                List<String> known = new ArrayList<>(beans.keySet());
                known.addAll(model.beans.keySet());
                throw new IllegalArgumentException(member.refWhere + ": ref " + member.ref + ": no such bean "
                        + "(expected: one of " + known + ", declared in the file or given to the bootstrap)");
            }
            return instantiate(declared.className(), declared.where());
        }
        if (member.type == null) {
            throw new IllegalArgumentException(member.firstSeen + ": service " + member.id + " has no "
                    + "implementation (expected: its class, or ref naming a bean)");
        }
        return instantiate(member.type, member.typeWhere);
    }

    private static Object instantiate(String className, String where) {
        Class<?> implementation = load(className, where);
        try {
            return implementation.getConstructor().newInstance();
        } catch (NoSuchMethodException e) {
            throw new IllegalArgumentException(where + ": class " + className
                    + " (expected: a public constructor without arguments)", e);
        } catch (InstantiationException | IllegalAccessException | InvocationTargetException e) {
            Throwable cause = e instanceof InvocationTargetException ite ? ite.getCause() : e;
            throw new IllegalArgumentException(where + ": cannot create " + className + ": " + cause, cause);
        }
    }

    private static <T> T built(java.util.function.Supplier<T> build, String where) {
        try {
            return build.get();
        } catch (IllegalArgumentException e) {
            throw e.getMessage() != null && e.getMessage().startsWith(where.substring(0, where.indexOf(':') + 1))
                    ? e : new IllegalArgumentException(where + ": " + e.getMessage(), e);
        }
    }

    private static Class<?> load(String name, String where) {
        try {
            return Class.forName(name, true, Thread.currentThread().getContextClassLoader());
        } catch (ClassNotFoundException | LinkageError e) {
            throw new IllegalArgumentException(where + ": class " + name + " (expected: a class on the class path)",
                    e);
        }
    }
}
