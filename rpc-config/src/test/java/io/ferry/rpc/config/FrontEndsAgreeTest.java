package io.ferry.rpc.config;

import io.ferry.rpc.config.annotated.Inventory;
import io.ferry.rpc.config.annotated.InventoryImpl;
import io.ferry.rpc.config.fixtures.UserService;
import io.ferry.rpc.config.fixtures.UserServiceImpl;
import io.ferry.rpc.config.internal.files.FileBootstrap;
import io.ferry.rpc.config.internal.files.Sources;
import io.ferry.rpc.option.Option;
import io.ferry.rpc.config.option.Options;
import io.ferry.rpc.config.option.Resolved;
import io.ferry.rpc.option.Scope;
import io.ferry.rpc.config.option.Settings;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.BiConsumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The same system described by builders, XML and properties ends in equal settings, scope by scope, for every
 * option of the table: each option gets a value other than its default, set through its typed builder method, an
 * XML attribute and a properties key. A new option without a typed setter, an attribute or a key fails here.
 */
class FrontEndsAgreeTest {
    private static final String USERS = UserService.class.getName();
    /** Options set as a group in code (pairs and objects), through the builders' generic {@code set}. */
    private static final Set<Option<?>> SET_TOGETHER = Set.of(Options.RECONNECT_BACKOFF_MIN,
            Options.RECONNECT_BACKOFF_MAX, Options.SHUTDOWN_GRACE, Options.SHUTDOWN_TIMEOUT, Options.TCP_NO_DELAY,
            Options.KEEP_ALIVE, Options.SEND_BUFFER, Options.RECEIVE_BUFFER, Options.WRITE_BUFFER_LOW,
            Options.WRITE_BUFFER_HIGH, Options.THREADS, Options.QUEUES, Options.THREAD_POOL, Options.CORE_THREADS,
            Options.ALIVE);

    @TempDir
    Path dir;

    /** A valid value other than the default. */
    private static Object sample(Option<?> option) {
        Class<?> type = option.type();
        if (type == Duration.class) {
            return Duration.ofMillis(Math.max(option.min(), 0) + 4321);
        }
        if (type == Integer.class || type == Long.class) {
            long n = option == Options.WRITE_BUFFER_LOW ? 40_000 : option == Options.WRITE_BUFFER_HIGH ? 80_000
                    : option == Options.PORT ? 20999 : Math.min(Math.max(option.min(), 0) + 7, option.max());
            if (option.min() >= 1024) {
                n = option.min() * 3;
            }
            return type == Long.class ? (Object) n : (Object) (int) n;
        }
        if (type == Boolean.class) {
            return !Boolean.TRUE.equals(option.defaultValue());
        }
        if (type.isEnum() && type.getEnumConstants().length == 1) {
            return type.getEnumConstants()[0]; // no other value is valid
        }
        if (type.isEnum()) {
            for (Object constant : type.getEnumConstants()) {
                if (!constant.equals(option.defaultValue())) {
                    return constant;
                }
            }
        }
        if (option == Options.URL) {
            return "dubbo://127.0.0.1:20999";
        }
        if (option == Options.HOST) {
            return "127.0.0.1";
        }
        if (option == Options.LOAD_BALANCE) {
            return "random";
        }
        if (option == Options.CLUSTER) {
            return "failfast";
        }
        if (option == Options.FILTER) {
            return "-activelimit";
        }
        return "v-" + option.name();
    }

    private static String text(Object value) {
        if (value instanceof Duration d) {
            return String.valueOf(d.toMillis());
        }
        return value instanceof Enum<?> e ? e.name().toLowerCase(Locale.ROOT) : String.valueOf(value);
    }

    private static List<Option<?>> at(Scope scope) {
        List<Option<?>> options = new ArrayList<>();
        for (Option<?> option : Options.all()) {
            // generic makes another kind of reference (ReferenceConfig.generic): GenericCallTest has its front ends
            if (option.scopes().contains(scope) && option != Options.GENERIC) {
                options.add(option);
            }
        }
        return options;
    }

    /** What every front end must produce for a scope: each option at its sample value. */
    private static Map<String, Object> expected(List<Option<?>> options) {
        Map<String, Object> values = new TreeMap<>();
        options.forEach(o -> values.put(o.name(), sample(o)));
        return values;
    }

    /** Sets each option through the builder's typed method of its name, or its generic set if it is set together. */
    @SuppressWarnings({"unchecked", "rawtypes"})
    private static void viaBuilder(Object builder, List<Option<?>> options, BiConsumer<Option, Object> generic)
            throws Exception {
        for (Option<?> option : options) {
            Method typed = typedSetter(builder.getClass(), option);
            if (typed != null) {
                typed.invoke(builder, sample(option));
            } else {
                assertTrue(SET_TOGETHER.contains(option), builder.getClass().getName() + " has no typed setter for "
                        + option.name());
                generic.accept(option, sample(option));
            }
        }
    }

    private static Method typedSetter(Class<?> builder, Option<?> option) {
        for (Method m : builder.getMethods()) {
            if (m.getName().equals(option.name()) && m.getParameterCount() == 1) {
                Class<?> p = m.getParameterTypes()[0];
                if (p == option.type() || (p.isPrimitive() && wrap(p) == option.type())) {
                    return m;
                }
            }
        }
        return null;
    }

    private static Class<?> wrap(Class<?> primitive) {
        return primitive == int.class ? Integer.class : primitive == long.class ? Long.class
                : primitive == boolean.class ? Boolean.class : primitive;
    }

    private static String attributes(List<Option<?>> options) {
        StringBuilder xml = new StringBuilder();
        for (Option<?> option : options) {
            xml.append(' ');
            if (option == Options.ONEWAY) {
                xml.append("return=\"").append(!(Boolean) sample(option)).append('"');
            } else {
                xml.append(option.fileName()).append("=\"").append(text(sample(option))).append('"');
            }
        }
        return xml.toString();
    }

    private static void keys(List<String> lines, String prefix, List<Option<?>> options) {
        options.forEach(o -> lines.add(prefix + o.fileName() + " = " + text(sample(o))));
    }

    /** The options a reference's methods take: the method scope's, less the provider's executes. */
    private static List<Option<?>> referenceMethodOptions() {
        List<Option<?>> options = new ArrayList<>(at(Scope.METHOD));
        options.remove(Options.EXECUTES);
        return options;
    }

    private static List<Option<?>> serviceMethodOptions() {
        List<Option<?>> options = new ArrayList<>();
        at(Scope.METHOD).stream().filter(o -> o.scopes().contains(Scope.SERVICE)).forEach(options::add);
        return options;
    }

    @Test
    @SuppressWarnings({"unchecked", "rawtypes"})
    void buildersXmlAndPropertiesDescribeTheSameSystemAlike() throws Exception {
        ConsumerConfig.Builder consumer = ConsumerConfig.builder();
        viaBuilder(consumer, at(Scope.CONSUMER), (o, v) -> consumer.set(o, v));
        ProtocolConfig.Builder protocol = ProtocolConfig.builder();
        viaBuilder(protocol, at(Scope.PROTOCOL), (o, v) -> protocol.set(o, v));
        ReferenceConfig.Builder<UserService> reference = ReferenceConfig.builder(UserService.class).id("users");
        viaBuilder(reference, at(Scope.REFERENCE), (o, v) -> reference.set(o, v));
        MethodConfig.Builder referenceMethod = MethodConfig.builder("record");
        viaBuilder(referenceMethod, referenceMethodOptions(), (o, v) -> referenceMethod.set(o, v));
        reference.method(referenceMethod.build());
        ServiceConfig.Builder<UserService> service = ServiceConfig.builder(UserService.class, new UserServiceImpl());
        viaBuilder(service, at(Scope.SERVICE), (o, v) -> service.set(o, v));
        MethodConfig.Builder serviceMethod = MethodConfig.builder("hello");
        viaBuilder(serviceMethod, serviceMethodOptions(), (o, v) -> serviceMethod.set(o, v));
        service.method(serviceMethod.build());
        Described code = new Described(consumer.build().settings(), protocol.build().settings(),
                reference.build(), service.build());

        Path xml = dir.resolve("all.xml");
        Files.writeString(xml, "<ferry:config xmlns:ferry=\"http://ferry.io/schema/ferry\">\n"
                + "<ferry:consumer" + attributes(at(Scope.CONSUMER)) + "/>\n"
                + "<ferry:protocol" + attributes(at(Scope.PROTOCOL)) + "/>\n"
                + "<ferry:reference id=\"users\" interface=\"" + USERS + "\"" + attributes(at(Scope.REFERENCE)) + ">"
                + "<ferry:method name=\"record\"" + attributes(referenceMethodOptions()) + "/></ferry:reference>\n"
                + "<ferry:service interface=\"" + USERS + "\" class=\"" + UserServiceImpl.class.getName() + "\""
                + attributes(at(Scope.SERVICE)) + "><ferry:method name=\"hello\""
                + attributes(serviceMethodOptions()) + "/></ferry:service>\n</ferry:config>\n");
        Described fromXml = Described.of(FileBootstrap.fromXml(xml, Map.of()));

        List<String> lines = new ArrayList<>();
        keys(lines, "ferry.consumer.", at(Scope.CONSUMER));
        keys(lines, "ferry.protocol.", at(Scope.PROTOCOL));
        lines.add("ferry.reference.users.interface = " + USERS);
        keys(lines, "ferry.reference.users.", at(Scope.REFERENCE));
        keys(lines, "ferry.reference.users.method.record.", referenceMethodOptions());
        lines.add("ferry.service." + USERS + ".class = " + UserServiceImpl.class.getName());
        keys(lines, "ferry.service." + USERS + ".", at(Scope.SERVICE));
        keys(lines, "ferry.service." + USERS + ".method.hello.", serviceMethodOptions());
        Path properties = Files.write(dir.resolve("all.properties"), lines);
        Described fromProperties = Described.of(FileBootstrap.fromProperties(properties, Map.of()));

        Described expected = new Described(expected(at(Scope.CONSUMER)), expected(at(Scope.PROTOCOL)),
                expected(at(Scope.REFERENCE)), expected(referenceMethodOptions()), expected(at(Scope.SERVICE)),
                expected(serviceMethodOptions()));
        assertEquals(expected, code, "builders");
        assertEquals(expected, fromXml, "XML");
        assertEquals(expected, fromProperties, "properties");
    }

    @Test
    void providerDefaultsFromXmlAndPropertiesLandAlike() throws Exception {
        List<Option<?>> provider = at(Scope.PROVIDER);
        Path xml = dir.resolve("provider.xml");
        Files.writeString(xml, "<ferry:config xmlns:ferry=\"http://ferry.io/schema/ferry\">\n"
                + "<ferry:provider" + attributes(provider) + "/>\n<ferry:service interface=\"" + USERS
                + "\" class=\"" + UserServiceImpl.class.getName() + "\"/>\n</ferry:config>\n");
        List<String> lines = new ArrayList<>();
        keys(lines, "ferry.provider.", provider);
        lines.add("ferry.service." + USERS + ".class = " + UserServiceImpl.class.getName());
        Path properties = Files.write(dir.resolve("provider.properties"), lines);
        Map<String, Object> toProtocol = new TreeMap<>();
        Map<String, Object> toService = new TreeMap<>();
        provider.forEach(o -> (o.scopes().contains(Scope.PROTOCOL) ? toProtocol : toService).put(o.name(),
                sample(o)));
        for (FileBootstrap.Loaded loaded : List.of(FileBootstrap.fromXml(xml, Map.of()),
                FileBootstrap.fromProperties(properties, Map.of()))) {
            assertEquals(expected(provider), loaded.provider().values());
            try (Ferry ferry = Ferry.builder().shutdownHook(false).sources(Sources.none())
                    .protocol(loaded.protocol()).providerDefaults(loaded.provider()).build()) {
                assertEquals(toProtocol, ferry.protocol().settings().values());
                Resolved service = ferry.settingsOf(loaded.services().get(0));
                Map<String, Object> got = new TreeMap<>();
                provider.stream().filter(o -> !o.scopes().contains(Scope.PROTOCOL))
                        .forEach(o -> got.put(o.name(), service.get(o)));
                assertEquals(toService, got);
            }
        }
    }

    @Test
    void annotationsAndXmlDescribeAServiceAlike() throws Exception {
        // Inventory says @RpcService(version = "2.1", timeoutMillis = 3000) and @RpcMethod(timeoutMillis = 100)
        // on slowStock; the XML says the same of the unannotated UserService's hello
        ServiceConfig<Inventory> annotated = ServiceConfig.builder(Inventory.class, new InventoryImpl()).build();
        Path xml = dir.resolve("same.xml");
        Files.writeString(xml, "<ferry:config xmlns:ferry=\"http://ferry.io/schema/ferry\">\n"
                + "<ferry:service interface=\""
                + USERS + "\" class=\"" + UserServiceImpl.class.getName() + "\" version=\"2.1\" timeout=\"3000\">"
                + "<ferry:method name=\"hello\" timeout=\"100\"/></ferry:service>\n</ferry:config>\n");
        ServiceConfig<?> described = FileBootstrap.fromXml(xml, Map.of()).services().get(0);
        assertEquals(annotated.settings().values(), described.settings().values());
        try (Ferry ferry = Ferry.builder().sources(Sources.none()).build()) {
            assertEquals(ferry.settingsOf(annotated).get(Options.TIMEOUT, Inventory.class.getMethod("slowStock",
                    String.class)), ferry.settingsOf(described).get(Options.TIMEOUT,
                    UserService.class.getMethod("hello", String.class)));
        }
    }

    /** Every element of Dubbo's @DubboService that Ferry has, set away from its default. */
    @io.ferry.rpc.RpcExport(value = UserService.class, version = "2.1", group = "g", token = "secret",
            callers = "cn:shop", weight = 7, warmupMillis = 4321, timeoutMillis = 4321, retries = 7, loadbalance = "random", cluster = "failfast",
            executes = 7, actives = 7, accesslog = "true", filter = {"audit", "-activelimit"})
    static class AllExported extends UserServiceImpl {
    }

    /** Every element of Dubbo's @DubboReference that Ferry has, set away from its default. */
    static class AllReferenced {
        @io.ferry.rpc.RpcReference(id = "users", url = "dubbo://127.0.0.1:20999", version = "2.1", group = "g",
                timeoutMillis = 4321, connections = 7, mock = "return null", stub = "true", check = "false",
                retries = 7, loadbalance = "random", cluster = "failfast", lazy = "true", async = "true",
                filter = {"audit", "-activelimit"}, actives = 7, sslEnabled = "true")
        UserService users;
    }

    /** Each element of the annotation but those listed differs from its default on {@code annotation}. */
    private static void everyElementSet(java.lang.annotation.Annotation annotation, Set<String> except)
            throws Exception {
        for (Method element : annotation.annotationType().getDeclaredMethods()) {
            if (!except.contains(element.getName())) {
                assertTrue(!java.util.Objects.deepEquals(element.getDefaultValue(), element.invoke(annotation)),
                        "@" + annotation.annotationType().getSimpleName() + "(" + element.getName() + ") is not "
                                + "compared with the other front ends here: set it above");
            }
        }
    }

    @Test
    void annotationsAndXmlDescribeAnExportAndAReferenceAlike() throws Exception {
        everyElementSet(AllExported.class.getAnnotation(io.ferry.rpc.RpcExport.class), Set.of("value"));
        java.lang.reflect.Field field = AllReferenced.class.getDeclaredField("users");
        io.ferry.rpc.RpcReference annotation = field.getAnnotation(io.ferry.rpc.RpcReference.class);
        everyElementSet(annotation, Set.of("interfaceName")); // a GenericService's only: GenericCallTest
        ServiceConfig<?> exported = ServiceConfig.fromAnnotation(AllExported.class, new AllExported()).build();
        ReferenceConfig<?> referenced = ReferenceConfig.fromAnnotation(annotation, UserService.class,
                "AllReferenced.users").build();

        Path xml = dir.resolve("annotated.xml");
        Files.writeString(xml, "<ferry:config xmlns:ferry=\"http://ferry.io/schema/ferry\">\n"
                + "<ferry:service interface=\"" + USERS + "\" class=\"" + UserServiceImpl.class.getName() + "\""
                + " version=\"2.1\" group=\"g\" token=\"secret\" callers=\"cn:shop\" weight=\"7\""
                + " warmup=\"4321\" timeout=\"4321\" retries=\"7\" loadbalance=\"random\" cluster=\"failfast\""
                + " executes=\"7\" actives=\"7\" accesslog=\"true\" filter=\"audit,-activelimit\"/>\n"
                + "<ferry:reference id=\"users\" interface=\"" + USERS + "\" url=\"dubbo://127.0.0.1:20999\""
                + " version=\"2.1\" group=\"g\" timeout=\"4321\" connections=\"7\" mock=\"return null\""
                + " stub=\"true\" check=\"false\" retries=\"7\" loadbalance=\"random\" cluster=\"failfast\""
                + " lazy=\"true\" async=\"true\" filter=\"audit,-activelimit\" actives=\"7\" ssl-enabled=\"true\"/>\n"
                + "</ferry:config>\n");
        FileBootstrap.Loaded loaded = FileBootstrap.fromXml(xml, Map.of());
        assertEquals(loaded.services().get(0).settings().values(), exported.settings().values(), "@RpcExport");
        ReferenceConfig<?> described = loaded.references().get("users");
        assertEquals(described.settings().values(), referenced.settings().values(), "@RpcReference");
        assertEquals(described.id(), referenced.id(), "@RpcReference(id)");
    }

    /** One system's settings, scope by scope, as values only (not where they were set). */
    private record Described(Map<String, Object> consumer, Map<String, Object> protocol,
                             Map<String, Object> reference, Map<String, Object> referenceMethod,
                             Map<String, Object> service, Map<String, Object> serviceMethod) {
        Described(Settings consumer, Settings protocol, ReferenceConfig<?> reference, ServiceConfig<?> service) {
            this(consumer.values(), protocol.values(), reference.settings().values(),
                    reference.methods().get("record").settings().values(), service.settings().values(),
                    service.methods().get("hello").settings().values());
        }

        static Described of(FileBootstrap.Loaded loaded) {
            return new Described(loaded.consumer().settings(), loaded.protocol().settings(),
                    loaded.references().get("users"), loaded.services().get(0));
        }
    }
}
