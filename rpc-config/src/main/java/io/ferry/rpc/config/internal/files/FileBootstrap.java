package io.ferry.rpc.config.internal.files;

import io.ferry.rpc.config.ApplicationConfig;
import io.ferry.rpc.config.ConsumerConfig;
import io.ferry.rpc.config.ProtocolConfig;
import io.ferry.rpc.config.ReferenceConfig;
import io.ferry.rpc.config.RegistryConfig;
import io.ferry.rpc.config.ServiceConfig;

import java.lang.reflect.InvocationTargetException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Reads a {@code ferry.properties} file, with {@code -D} system properties of the same names overriding it, into
 * the typed configs a {@code Ferry} is built from. Every mistake names the file and line (or the system property),
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
        FileModel model = new FileModel();
        model.addAll(PropertiesReader.read(file));
        List<PropertiesReader.Entry> fromSystem = new ArrayList<>();
        new TreeMap<>(overrides).forEach((key, value) -> {
            if (isOverride(key)) {
                fromSystem.add(new PropertiesReader.Entry(key, value, "-D" + key));
            }
        });
        model.addAll(fromSystem);
        return bind(model);
    }

    /** System properties under the scopes a file has; others under {@code ferry.} are Ferry's own switches. */
    private static boolean isOverride(String key) {
        for (String scope : List.of("application", "registry", "protocol", "consumer", "reference", "service")) {
            if (key.startsWith("ferry." + scope + ".")) {
                return true;
            }
        }
        return false;
    }

    private static Loaded bind(FileModel model) {
        List<ServiceConfig<?>> services = new ArrayList<>();
        for (FileModel.Member member : model.services.values()) {
            services.add(service(member));
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
    private static ServiceConfig<?> service(FileModel.Member member) {
        Class<?> type = load(member.id, member.firstSeen);
        if (member.type == null) {
            throw new IllegalArgumentException(member.firstSeen + ": service " + member.id + " has no class "
                    + "(expected: ferry.service." + member.id + ".class=its implementation)");
        }
        Class<?> implementation = load(member.type, member.typeWhere);
        if (!type.isAssignableFrom(implementation)) {
            throw new IllegalArgumentException(member.typeWhere + ": class " + member.type + " (expected: an "
                    + "implementation of " + type.getName() + ")");
        }
        Object instance;
        try {
            instance = implementation.getConstructor().newInstance();
        } catch (NoSuchMethodException e) {
            throw new IllegalArgumentException(member.typeWhere + ": class " + member.type
                    + " (expected: a public constructor without arguments)", e);
        } catch (InstantiationException | IllegalAccessException | InvocationTargetException e) {
            Throwable cause = e instanceof InvocationTargetException ite ? ite.getCause() : e;
            throw new IllegalArgumentException(member.typeWhere + ": cannot create " + member.type + ": " + cause,
                    cause);
        }
        ServiceConfig.Builder b = ServiceConfig.builder((Class) type, instance);
        Binder.service(member, b);
        return built(b::build, member.firstSeen);
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
