package io.ferry.rpc.config.internal.files;

import io.ferry.rpc.config.internal.NamedExtensions;
import io.ferry.rpc.config.ApplicationConfig;
import io.ferry.rpc.config.ConsumerConfig;
import io.ferry.rpc.config.ProtocolConfig;
import io.ferry.rpc.config.ReferenceConfig;
import io.ferry.rpc.config.RegistryConfig;
import io.ferry.rpc.config.ServiceConfig;
import io.ferry.rpc.config.SslConfig;
import io.ferry.rpc.config.option.Options;
import io.ferry.rpc.config.option.Settings;

import java.lang.reflect.InvocationTargetException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads {@code ferry.xml} or a properties file into the typed configs a {@code Ferry} is built from; the bootstrap
 * then applies {@code -D} and the class path's {@code ferry.properties} ({@link Sources}) as it does for code.
 * Every mistake names the file and line (or the system property), the key or option, and what was expected.
 */
public final class FileBootstrap {
    /** What a file describes, ready to build; application and registry are null when the file names none. */
    /**
     * @param registrySettings the registry as the file set it, for {@code -D} to change option by option
     * @param provider         the provider scope's defaults; the bootstrap places them after merging sources, so
     *                         that {@code -Dferry.provider.*} beats the file and a service's own values beat both
     */
    public record Loaded(ApplicationConfig application, RegistryConfig registry, Settings registrySettings,
                         ProtocolConfig protocol, SslConfig ssl, Settings provider, ConsumerConfig consumer,
                         List<ServiceConfig<?>> services, Map<String, ReferenceConfig<?>> references) {
        /** Whether the file describes anything to run: a service or a reference. */
        public boolean isEmpty() {
            return services.isEmpty() && references.isEmpty();
        }
    }

    private FileBootstrap() {
    }

    /** Reads a properties file; {@code beans}: implementations that services name by {@code ref}, by id. */
    public static Loaded fromProperties(Path file, Map<String, Object> beans) {
        FileModel model = new FileModel();
        model.addAll(PropertiesReader.read(file));
        return bind(model, beans);
    }

    /** Reads {@code ferry.xml}; {@code beans}: implementations that services name by {@code ref}, by id. */
    public static Loaded fromXml(Path file, Map<String, Object> beans) {
        return bind(XmlReader.read(file), beans);
    }

    /**
     * Reads {@code ferry.xml}, else {@code ferry.properties}, from {@code loader}'s class path (in a jar or a
     * directory), or returns null when it has neither.
     */
    public static Loaded fromClassPath(ClassLoader loader, Map<String, Object> beans) {
        for (String name : List.of("ferry.xml", "ferry.properties")) {
            java.net.URL url = loader.getResource(name);
            if (url != null) {
                String shown = name + " (class path)";
                try (java.io.InputStream in = url.openStream()) {
                    if (name.endsWith(".xml")) {
                        return bind(XmlReader.read(shown, in), beans);
                    }
                    FileModel model = new FileModel();
                    model.addAll(PropertiesReader.read(shown, in));
                    return bind(model, beans);
                } catch (java.io.IOException e) {
                    throw new java.io.UncheckedIOException("cannot read " + url + ": " + e.getMessage(), e);
                }
            }
        }
        return null;
    }

    /** The registry settings describe (an address, timeouts, cache file), or null when they give no address. */
    public static RegistryConfig registry(Settings s) {
        return Binder.registry(s);
    }

    private static Loaded bind(FileModel model, Map<String, Object> beans) {
        // a name no jar registers is refused with its file and line before anything is built
        NamedExtensions.check(model.consumer);
        NamedExtensions.check(model.provider);
        model.references.values().forEach(member -> NamedExtensions.check(member.settings));
        model.services.values().forEach(member -> NamedExtensions.check(member.settings));
        List<ServiceConfig<?>> services = new ArrayList<>();
        for (FileModel.Member member : model.services.values()) {
            services.add(service(member, implementation(member, model, beans)));
        }
        Map<String, ReferenceConfig<?>> references = new LinkedHashMap<>();
        for (FileModel.Member member : model.references.values()) {
            references.put(member.id, reference(member));
        }
        return new Loaded(Binder.application(model.application), Binder.registry(model.registry),
                model.registry.copy(), Binder.protocol(model.protocol), Binder.ssl(model.ssl), model.provider.copy(),
                Binder.consumer(model.consumer), services, references);
    }

    private static ReferenceConfig<?> reference(FileModel.Member member) {
        if (member.type == null) {
            throw new IllegalArgumentException(member.firstSeen + ": reference '" + member.id
                    + "' has no interface (expected: ferry.reference." + member.id + ".interface=com.acme.Api)");
        }
        // a generic reference names its interface only: the class need not be on this class path
        ReferenceConfig.Builder<?> b = Boolean.TRUE.equals(member.settings.get(Options.GENERIC))
                ? ReferenceConfig.generic(member.type) : ReferenceConfig.builder(load(member.type, member.typeWhere));
        return built(() -> {
            Binder.reference(member, b);
            return b.build();
        }, member.firstSeen);
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
        return built(() -> {
            Binder.service(member, b);
            return b.build();
        }, member.firstSeen);
    }

    /** The service's implementation: a bean given in code or declared in the file, or a new instance of its class. */
    private static Object implementation(FileModel.Member member, FileModel model, Map<String, Object> beans) {
        if (member.ref != null && member.type != null) {
            throw new IllegalArgumentException(member.refWhere + ": both class and ref (expected: one of them)");
        }
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
