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
        model.addAll(PropertiesReader.read(file, model.problems));
        return bind(model, beans);
    }

    /** Reads {@code ferry.xml}; {@code beans}: implementations that services name by {@code ref}, by id. */
    public static Loaded fromXml(Path file, Map<String, Object> beans) {
        return bind(XmlReader.readAll(file), beans);
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
                        return bind(XmlReader.readAll(shown, in), beans);
                    }
                    FileModel model = new FileModel();
                    model.addAll(PropertiesReader.read(shown, in, model.problems));
                    return bind(model, beans);
                } catch (java.io.IOException e) {
                    throw new java.io.UncheckedIOException("cannot read " + url + ": " + e.getMessage(), e);
                }
            }
        }
        return null;
    }

    /**
     * A file read for a host that owns the implementations and the lifecycle (Spring): what it declares is
     * bound in two steps, everything but the services when the host builds the Ferry, the services once the
     * host's beans are ready ({@link #services}).
     */
    public static final class Hosted {
        private final FileModel model;

        private Hosted(FileModel model) {
            this.model = model;
        }

        /**
         * Reports every mistake of a host's file at once: what reading found, and what binding everything the
         * file declares but the services' implementations (the host's beans, not there yet) finds.
         */
        private static Hosted checked(FileModel model) {
            return checked(model, null, List.of());
        }

        /**
         * As {@link #checked(FileModel)}, and each service's {@code ref} against the host's beans ({@code isBean}
         * null: not known yet), so that a wrong name is reported with the file's other mistakes.
         */
        private static Hosted checked(FileModel model, java.util.function.Predicate<String> isBean,
                                      java.util.Collection<String> beanNames) {
            Problems problems = new Problems();
            problems.addAll(model.problems);
            if (isBean != null) {
                for (FileModel.Member member : model.services.values()) {
                    if (member.ref != null && !isBean.test(member.ref)) {
                        problems.add(new IllegalArgumentException(noSuchBean(member, beanNames,
                                "one of the context's beans %s")));
                    }
                }
            }
            checkNames(model, problems);
            bindAllBut(model, problems);
            model.services.values().forEach(member -> problems.attemptValue(() -> load(member.id,
                    member.firstSeen)));
            problems.throwIfAny();
            return new Hosted(model);
        }

        /**
         * The Ferry elements of a host's XML file; {@code values} resolves the host's placeholders.
         *
         * @throws IllegalArgumentException naming every mistake in the file, one per line, in file order
         */
        public static Hosted xml(String name, java.io.InputStream in, java.util.function.UnaryOperator<String> values) {
            return checked(XmlReader.readHosted(name, in, values));
        }

        /**
         * As {@link #xml(String, java.io.InputStream, java.util.function.UnaryOperator)}, with each service's
         * {@code ref} checked against the host's beans: {@code isBean} says whether the host has one of that name,
         * {@code beanNames} are those a mistake's message may offer (the application's, not the host's own).
         */
        public static Hosted xml(String name, java.io.InputStream in, java.util.function.UnaryOperator<String> values,
                                 java.util.function.Predicate<String> isBean,
                                 java.util.Collection<String> beanNames) {
            return checked(XmlReader.readHosted(name, in, values), isBean, beanNames);
        }

        /** Properties under {@code ferry.}, each with where it came from, in order (a later key wins). */
        public static Hosted properties(List<Map.Entry<String, String>> keys, java.util.function.Function<String,
                String> whereOf) {
            return properties(keys, whereOf, null, List.of());
        }

        /** As above, with each service's {@code ref} checked against the host's beans (see {@link #xml}). */
        public static Hosted properties(List<Map.Entry<String, String>> keys, java.util.function.Function<String,
                String> whereOf, java.util.function.Predicate<String> isBean, java.util.Collection<String> beanNames) {
            List<PropertiesReader.Entry> entries = new ArrayList<>();
            keys.forEach(k -> entries.add(new PropertiesReader.Entry(k.getKey(), k.getValue(),
                    whereOf.apply(k.getKey()))));
            FileModel model = new FileModel();
            model.addAll(entries);
            return checked(model, isBean, beanNames);
        }

        /**
         * This file and {@code other} as one: each reference, service and bean declared once, and a setting of
         * the application, registry, protocol, TLS, provider or consumer given by both only if they agree.
         */
        public Hosted and(Hosted other) {
            FileModel merged = new FileModel();
            merged.fillFrom(model);
            FileModel.refuseConflicts(model, other.model);
            merged.fillFrom(other.model);
            return new Hosted(merged);
        }

        /** The references declared, by id: their interfaces' names, in order. */
        public Map<String, String> referenceInterfaces() {
            Map<String, String> types = new LinkedHashMap<>();
            model.references.values().forEach(member -> types.put(member.id, member.type));
            return types;
        }

        /** The references declared, by id: the types their proxies implement (a generic one's GenericService). */
        public Map<String, String> referenceTypes() {
            Map<String, String> types = new LinkedHashMap<>();
            model.references.values().forEach(member -> types.put(member.id,
                    Boolean.TRUE.equals(member.settings.get(io.ferry.rpc.config.option.Options.GENERIC))
                            ? io.ferry.rpc.GenericService.class.getName() : member.type));
            return types;
        }

        /** The services declared: their interfaces' names, in order (one per version or group exported). */
        public List<String> serviceInterfaces() {
            return model.services.values().stream().map(member -> member.id).toList();
        }

        /**
         * The packages {@code <annotation package>} names, in order: the host scans them for its own beans
         * (Ferry's bootstrap, without a host, exports the {@code @RpcExport} classes it finds there).
         */
        public List<String> annotationPackages() {
            return model.scans.stream().map(FileModel.Scan::packageName).distinct().toList();
        }

        /** Everything declared but the services, bound and checked. */
        public Loaded withoutServices() {
            Problems problems = new Problems();
            checkNames(model, problems);
            Loaded all = bindAllBut(model, problems);
            problems.throwIfAny();
            return all;
        }

        /**
         * The services, with implementations named by {@code ref} taken from {@code beans} (null: no such bean);
         * {@code known}: the names a mistake's message offers.
         *
         * @throws IllegalArgumentException naming every service that cannot be built, one per line
         */
        public List<ServiceConfig<?>> services(java.util.function.Function<String, Object> beans,
                                               java.util.Collection<String> known) {
            Problems problems = new Problems();
            List<ServiceConfig<?>> services = new ArrayList<>();
            for (FileModel.Member member : model.services.values()) {
                ServiceConfig<?> service = service(member, () -> implementation(member, model, beans,
                        known, "one of the context's beans %s"), problems);
                if (service != null) {
                    services.add(service);
                }
            }
            problems.throwIfAny();
            return services;
        }
    }

    /** The registry settings describe (an address, timeouts, cache file), or null when they give no address. */
    public static RegistryConfig registry(Settings s) {
        return Binder.registry(s);
    }

    /**
     * Binds what a file declared, reporting every mistake at once: the reader's, then each name no jar registers,
     * class that is missing, bean that is not there and value a builder refuses, one per line in file order.
     */
    private static Loaded bind(FileModel model, Map<String, Object> beans) {
        Problems problems = model.problems;
        checkNames(model, problems);
        List<ServiceConfig<?>> services = new ArrayList<>();
        for (FileModel.Member member : model.services.values()) {
            List<String> known = new ArrayList<>(beans.keySet());
            known.addAll(model.beans.keySet());
            ServiceConfig<?> service = service(member, () -> implementation(member, model, beans::get, known,
                    "one of %s, declared in the file or given to the bootstrap"), problems);
            if (service != null) {
                services.add(service);
            }
        }
        // a bean no service names is made by nothing, but a class missing from the class path is still a mistake
        model.beans.values().forEach(bean -> problems.attemptValue(() -> load(bean.className(), bean.where())));
        services.addAll(scanned(model, problems));
        Loaded rest = bindAllBut(model, problems);
        problems.throwIfAny();
        return new Loaded(rest.application(), rest.registry(), rest.registrySettings(), rest.protocol(), rest.ssl(),
                rest.provider(), rest.consumer(), services, rest.references());
    }

    /** A name no jar registers is refused with its file and line before anything is built. */
    private static void checkNames(FileModel model, Problems problems) {
        problems.attempt(() -> NamedExtensions.check(model.consumer));
        problems.attempt(() -> NamedExtensions.check(model.provider));
        model.references.values().forEach(member -> problems.attempt(() -> NamedExtensions.check(member.settings)));
        model.services.values().forEach(member -> problems.attempt(() -> NamedExtensions.check(member.settings)));
    }

    /** Everything but the services; what cannot be bound is kept in {@code problems} (and is null here). */
    private static Loaded bindAllBut(FileModel model, Problems problems) {
        Map<String, ReferenceConfig<?>> references = new LinkedHashMap<>();
        for (FileModel.Member member : model.references.values()) {
            if (!member.reported) {
                ReferenceConfig<?> reference = problems.attemptValue(() -> reference(member));
                if (reference != null) {
                    references.put(member.id, reference);
                }
            }
        }
        // Dubbo's address="N/A": no registry, as a file without one
        Settings registry = model.noRegistry != null ? new Settings() : model.registry;
        return new Loaded(problems.attemptValue(() -> Binder.application(model.application)),
                problems.attemptValue(() -> Binder.registry(registry)), registry.copy(),
                problems.attemptValue(() -> Binder.protocol(model.protocol)),
                problems.attemptValue(() -> Binder.ssl(model.ssl)), model.provider.copy(),
                problems.attemptValue(() -> Binder.consumer(model.consumer)), List.of(), references);
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

    /**
     * A service of the file: its interface and its implementation are checked apart, so that both are named when
     * both are wrong; null, with the mistakes in {@code problems}, when it cannot be built.
     */
    private static ServiceConfig<?> service(FileModel.Member member,
                                            java.util.function.Supplier<Object> implementation, Problems problems) {
        Class<?> type = problems.attemptValue(() -> load(member.id, member.firstSeen));
        Object instance = problems.attemptValue(implementation);
        if (type == null || instance == null) {
            return null;
        }
        return problems.attemptValue(() -> service(member, type, instance));
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static ServiceConfig<?> service(FileModel.Member member, Class<?> type, Object instance) {
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

    /**
     * The services of {@code <annotation package>}: every {@code @RpcExport} class of those packages on the class
     * path, made with its no-arg constructor, its settings from its annotations and the file's provider defaults.
     */
    @SuppressWarnings({"unchecked", "rawtypes"})
    private static List<ServiceConfig<?>> scanned(FileModel model, Problems problems) {
        List<ServiceConfig<?>> services = new ArrayList<>();
        java.util.Set<String> exported = new java.util.HashSet<>();
        for (FileModel.Scan scan : model.scans) {
            List<Class<?>> classes = problems.attemptValue(() -> ExportScan.annotated(scan.packageName(),
                    Thread.currentThread().getContextClassLoader(), scan.where()));
            if (classes == null) {
                continue;
            }
            for (Class<?> implementation : classes) {
                if (!exported.add(implementation.getName())) {
                    continue; // found again under another package of the scan, one within the other
                }
                ServiceConfig<?> service = problems.attemptValue(() -> {
                    Class iface = exportedInterface(implementation, scan.where());
                    Object instance = instantiate(implementation.getName(), scan.where());
                    ServiceConfig<?> built = ServiceConfig.builder(iface, instance).build();
                    FileModel.Member declared = declaredAlike(model, iface, built);
                    if (declared != null) {
                        throw new IllegalArgumentException(scan.where() + ": " + implementation.getName()
                                + ", annotated @RpcExport, exports " + iface.getName() + ", which is declared at "
                                + declared.firstSeen + " too (expected: one of them; one service per interface, "
                                + "version and group)");
                    }
                    return built;
                });
                if (service != null) {
                    services.add(service);
                }
            }
        }
        return services;
    }

    /**
     * The file's service of {@code iface} that exports the same version and group as {@code scanned}, each taken as
     * it will be exported (the file's attribute, else the interface's {@code @RpcService}); null when none does.
     */
    private static FileModel.Member declaredAlike(FileModel model, Class<?> iface, ServiceConfig<?> scanned) {
        Settings annotated = io.ferry.rpc.config.internal.AnnotationValues.serviceSettings(iface);
        for (FileModel.Member member : model.services.values()) {
            if (member.id.equals(iface.getName())
                    && scanned.version().equals(effective(member, annotated, Options.VERSION))
                    && scanned.group().equals(effective(member, annotated, Options.GROUP))) {
                return member;
            }
        }
        return null;
    }

    private static String effective(FileModel.Member member, Settings annotated,
                                     io.ferry.rpc.option.Option<String> option) {
        String value = member.settings.get(option) != null ? member.settings.get(option) : annotated.get(option);
        return value == null ? "" : value;
    }

    private static Class<?> exportedInterface(Class<?> implementation, String where) {
        try {
            return io.ferry.rpc.config.internal.AnnotationValues.exportedInterface(implementation);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(where + ": " + e.getMessage(), e);
        }
    }

    /** The service's implementation: a bean given in code or declared in the file, or a new instance of its class. */
    private static Object implementation(FileModel.Member member, FileModel model,
                                         java.util.function.Function<String, Object> beans,
                                         java.util.Collection<String> known, String expected) {
        if (member.ref != null && member.type != null) {
            throw new IllegalArgumentException(member.refWhere + ": both class and ref (expected: one of them)");
        }
        if (member.ref != null) {
            Object bean = beans.apply(member.ref);
            if (bean != null) {
                return bean;
            }
            FileModel.Bean declared = model.beans.get(member.ref);
            if (declared == null) {
                throw new IllegalArgumentException(noSuchBean(member, known, expected));
            }
            return instantiate(declared.className(), declared.where());
        }
        if (member.type == null) {
            throw new IllegalArgumentException(member.firstSeen + ": service " + member.id + " has no "
                    + "implementation (expected: its class, or ref naming a bean)");
        }
        return instantiate(member.type, member.typeWhere);
    }

    /**
     * "ref demoServise: no such bean (did you mean demoService?)", or with the names known when none is near
     * ({@code expected}: what they are, with %s for them: "one of the context's beans %s"); at most 20 of them.
     */
    private static String noSuchBean(FileModel.Member member, java.util.Collection<String> known, String expected) {
        String near = DidYouMean.nearest(member.ref, known);
        List<String> some = known.stream().limit(20).toList();
        String names = known.size() > some.size() ? some.toString().replace("]", ", ...]") : some.toString();
        return member.refWhere + ": ref " + member.ref + ": no such bean (" + (near != null ? "did you mean " + near
                + "?" : "expected: " + expected.formatted(names)) + ")";
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
