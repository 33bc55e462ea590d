package io.ferry.rpc.config;

import io.ferry.rpc.EchoService;
import io.ferry.rpc.RpcExport;
import io.ferry.rpc.RpcReference;
import io.ferry.rpc.Filter;
import io.ferry.rpc.Invoker;
import io.ferry.rpc.Ticker;
import io.ferry.rpc.config.internal.ImplementationInvoker;
import io.ferry.rpc.config.internal.ReferenceHandler;
import io.ferry.rpc.config.internal.RegistryBridge;
import io.ferry.rpc.config.internal.RegistryBridges;
import io.ferry.rpc.RpcException;
import io.ferry.rpc.RpcStatus;
import io.ferry.rpc.cluster.Cluster;
import io.ferry.rpc.cluster.LoadBalancer;
import io.ferry.rpc.config.internal.ConcurrencyLimit;
import io.ferry.rpc.config.internal.cluster.AdaptiveBalancer;
import io.ferry.rpc.config.internal.cluster.BroadcastCluster;
import io.ferry.rpc.config.internal.cluster.ConsistentHashBalancer;
import io.ferry.rpc.config.internal.cluster.FailbackCluster;
import io.ferry.rpc.config.internal.cluster.FailfastCluster;
import io.ferry.rpc.config.internal.cluster.FailoverCluster;
import io.ferry.rpc.config.internal.cluster.FailsafeCluster;
import io.ferry.rpc.config.internal.cluster.ForkingCluster;
import io.ferry.rpc.config.internal.cluster.LeastActiveBalancer;
import io.ferry.rpc.config.internal.cluster.RandomBalancer;
import io.ferry.rpc.config.internal.cluster.RoundRobinBalancer;
import io.ferry.rpc.config.internal.cluster.ShortestResponseBalancer;
import io.ferry.rpc.config.internal.cluster.ClusterDirectory;
import io.ferry.rpc.config.internal.cluster.StaticDirectory;
import io.ferry.rpc.remoting.Client;
import io.ferry.rpc.remoting.ClientOptions;
import io.ferry.rpc.remoting.EndpointFactory;
import io.ferry.rpc.config.internal.files.FileBootstrap;
import io.ferry.rpc.config.internal.files.Sources;
import io.ferry.rpc.config.option.Options;
import io.ferry.rpc.config.option.Resolved;
import io.ferry.rpc.config.option.Settings;
import io.ferry.rpc.config.option.AnnotationValues;
import io.ferry.rpc.remoting.ConnectionView;
import io.ferry.rpc.remoting.Server;
import io.ferry.rpc.remoting.ServiceExport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.nio.file.Path;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.ScheduledExecutorService;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The bootstrap: exports services and creates references for a plain Java program.
 * <pre>{@code
 * try (Ferry ferry = Ferry.builder()
 *         .application(ApplicationConfig.of("greeter"))
 *         .protocol(ProtocolConfig.builder().port(20880).build())
 *         .build()) {
 *     ferry.export(ServiceConfig.builder(Greeter.class, new GreeterImpl()).build());
 *     Greeter greeter = ferry.reference(ReferenceConfig.builder(Greeter.class).url("dubbo://127.0.0.1:20880").build());
 * }
 * }</pre>
 * With a {@link RegistryConfig}, exported services are registered in ZooKeeper and references without a url find
 * their providers there. The server starts with the first export. {@link #close()} first unregisters, then
 * closes every reference and the server, and releases the shared client resources it held. Thread-safe.
 */
public final class Ferry implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(Ferry.class);

    private final ApplicationConfig application;
    private final ProtocolConfig protocol;
    private final ConsumerConfig consumer;
    private final RegistryConfig registryConfig;
    private final Sources sources;
    /** The provider scope's defaults for services, from -D and the class path's ferry.properties. */
    private final Settings serviceDefaults;
    private final List<AutoCloseable> directories = new ArrayList<>();
    private Client client;
    private ScheduledExecutorService scheduler;
    private final Ticker ticker = Ticker.system();
    private RegistryBridge registry;
    private final Thread shutdownHook;
    private Server server;
    private boolean closed;
    private final CountDownLatch terminated = new CountDownLatch(1);
    private final Map<String, Object> named = new ConcurrentHashMap<>();
    private final Map<String, ReferenceConfig<?>> namedConfigs = new ConcurrentHashMap<>();

    private Ferry(Builder b) {
        this.sources = b.sources != null ? b.sources
                : Sources.of(System.getProperties(), Thread.currentThread().getContextClassLoader());
        this.application = application(b);
        Settings provider = Settings.layered(sources.system().provider(), b.providerDefaults,
                sources.classPath().provider());
        Settings protocolSettings = sources.merged(Sources.Layer::protocol, b.protocol.settings());
        protocolSettings.fillFrom(Sources.forProtocol(provider)); // the protocol's own values win in every source
        this.protocol = b.protocol.withSettings(protocolSettings);
        this.serviceDefaults = Sources.forServices(provider);
        this.consumer = b.consumer.withSettings(sources.merged(Sources.Layer::consumer, b.consumer.settings()));
        this.registryConfig = registry(b.registry, b.registrySettings);
        this.shutdownHook = b.shutdownHook ? new Thread(this::close, "ferry-shutdown") : null;
        if (shutdownHook != null) {
            Runtime.getRuntime().addShutdownHook(shutdownHook);
        }
    }

    /** {@code -D} names the application over code, code over the class path's {@code ferry.properties}. */
    private ApplicationConfig application(Builder b) {
        String fromSystem = sources.system().application().get(Options.APPLICATION_NAME);
        String fromClassPath = sources.classPath().application().get(Options.APPLICATION_NAME);
        if (fromSystem != null) {
            return ApplicationConfig.of(fromSystem);
        }
        return b.applicationSet || fromClassPath == null ? b.application : ApplicationConfig.of(fromClassPath);
    }

    /**
     * The registry: one whose address {@code -D} gives; else the code's; else one the class path's
     * {@code ferry.properties} gives. Registry options without an address have nothing to apply to.
     */
    private RegistryConfig registry(RegistryConfig code, Settings codeSettings) {
        Settings fromSystem = sources.system().registry();
        Settings fromClassPath = sources.classPath().registry();
        if (codeSettings != null) { // a file's registry: -D changes it option by option
            return FileBootstrap.registry(Settings.layered(fromSystem, codeSettings, fromClassPath));
        }
        if (fromSystem.get(Options.REGISTRY_ADDRESS) != null
                || (code == null && fromClassPath.get(Options.REGISTRY_ADDRESS) != null)) {
            return FileBootstrap.registry(Settings.layered(fromSystem, fromClassPath));
        }
        Settings stray = Settings.layered(fromSystem, code == null ? new Settings() : fromClassPath);
        if (!stray.isEmpty()) {
            throw new IllegalArgumentException(stray.setting(stray.options().iterator().next()).where()
                    + ": a registry option without ferry.registry.address (the registry set in code is an object "
                    + "that -D and ferry.properties do not change; give the address too)");
        }
        return code;
    }

    /** This bootstrap's client transport, created with its first reference. */
    private synchronized Client client() {
        if (client == null) {
            client = consumer.ioThreads() != null ? Client.create(consumer.ioThreads()) : Client.create();
        }
        return client;
    }

    /** The registry, connected on first use. */
    private synchronized RegistryBridge registry() {
        if (registryConfig == null) {
            return null;
        }
        if (registry == null) {
            registry = RegistryBridges.open(registryConfig, application.name());
        }
        return registry;
    }

    public static Builder builder() {
        return new Builder();
    }

    public ApplicationConfig application() {
        return application;
    }

    /** Exports a service, starting the server on first use. Returns the bound port. */
    public synchronized int export(ServiceConfig<?> given) {
        checkOpen();
        ServiceConfig<?> config = withSources(given);
        Resolved resolved = resolve(config);
        List<Filter> filters = new ArrayList<>(protocol.filters());
        filters.addAll(config.filters());
        if (config.executes() > 0 || resolved.setForSomeMethod(Options.EXECUTES)) {
            filters.add(ConcurrencyLimit.executes(m -> resolved.get(Options.EXECUTES, m),
                    config.interfaceType().getName()));
        }
        Invoker invoker = Filter.chain(filters, new ImplementationInvoker(config.implementation()));
        if (server == null) {
            server = Server.start(protocol.serverOptions());
        }
        server.export(new ServiceExport(config.interfaceType(), config.version(), config.group(), invoker,
                config.allowList(), config.timeout(), config.methodTimeouts(), config.pool()));
        RegistryBridge r = registry();
        if (r != null) {
            r.registerProvider(config.interfaceType(), protocol.advertisedHost(), protocol.serverOptions().host(),
                    server.port(), config.version(), config.group(), config.timeout(),
                    protocol.serverOptions().heartbeat(), application.name());
        }
        log.info("exported {}{}{} on port {}", config.interfaceType().getName(),
                config.version().isEmpty() ? "" : ":" + config.version(),
                config.group().isEmpty() ? "" : " group " + config.group(), server.port());
        return server.port();
    }

    /**
     * The settings a reference would have here, each with where it was set: its methods', its own, this
     * bootstrap's consumer's (code with {@code -D} and the class path's {@code ferry.properties} applied), then the
     * built-in defaults. What {@link #reference(ReferenceConfig)} uses, without creating anything.
     */
    public Resolved settingsOf(ReferenceConfig<?> config) {
        return resolve(withSources(config));
    }

    /** The settings a service would be exported with here, as {@link #settingsOf(ReferenceConfig)} for references. */
    public Resolved settingsOf(ServiceConfig<?> config) {
        return resolve(withSources(config));
    }

    private Resolved resolve(ReferenceConfig<?> merged) {
        return new Resolved(methodSettings(merged.methods()), AnnotationValues::methodSettings, merged.settings(),
                consumer.settings());
    }

    private static Resolved resolve(ServiceConfig<?> merged) {
        // the provider's defaults are in the service's settings already; a service has no built-in timeout
        return new Resolved(methodSettings(merged.methods()), AnnotationValues::methodSettings, merged.settings(),
                new Settings());
    }

    /** The registry in force (code or file, with -D and the class path's ferry.properties applied), or null. */
    public RegistryConfig registryConfig() {
        return registryConfig;
    }

    /** The consumer defaults in force: the code's, with {@code -D} and the class path's ferry.properties applied. */
    public ConsumerConfig consumer() {
        return consumer;
    }

    /** The protocol in force: the code's, with {@code -D} and the class path's ferry.properties applied. */
    public ProtocolConfig protocol() {
        return protocol;
    }

    /** The service as -D and the class path's ferry.properties leave it, by its interface's name. */
    private <T> ServiceConfig<T> withSources(ServiceConfig<T> config) {
        String name = config.interfaceType().getName();
        Settings merged = sources.merged(layer -> layer.service(name), config.settings());
        merged.fillFrom(serviceDefaults);
        return config.withSettings(merged, methodConfigs(sources.mergedMethods(layer -> layer.serviceMethods(name),
                methodSettings(config.methods()))));
    }

    /** The reference as -D and the class path's ferry.properties leave it, by its id (none: as given). */
    private <T> ReferenceConfig<T> withSources(ReferenceConfig<T> config) {
        String id = config.id();
        if (id == null) {
            return config;
        }
        return config.withSettings(sources.merged(layer -> layer.reference(id), config.settings()),
                methodConfigs(sources.mergedMethods(layer -> layer.referenceMethods(id),
                        methodSettings(config.methods()))));
    }

    private static Map<String, Settings> methodSettings(Map<String, MethodConfig> methods) {
        Map<String, Settings> settings = new HashMap<>();
        methods.forEach((name, method) -> settings.put(name, method.settings()));
        return settings;
    }

    private static Map<String, MethodConfig> methodConfigs(Map<String, Settings> settings) {
        Map<String, MethodConfig> methods = new HashMap<>();
        settings.forEach((name, s) -> methods.put(name, MethodConfig.of(name, s)));
        return methods;
    }

    /** Exports an object whose class is annotated {@link RpcExport}. Returns the bound port. */
    @SuppressWarnings({"unchecked", "rawtypes"})
    public int export(Object implementation) {
        RpcExport export = implementation.getClass().getAnnotation(RpcExport.class);
        if (export == null) {
            throw new IllegalArgumentException("implementation: " + implementation.getClass().getName()
                    + " (expected: a class annotated @RpcExport)");
        }
        Class iface = export.value() != void.class ? export.value() : onlyInterface(implementation.getClass());
        return export(ServiceConfig.builder(iface, implementation).build());
    }

    /**
     * This bootstrap's consumer connections now, each with its state, IO thread, pending calls, bytes queued, time
     * spent unwritable and last heartbeat round trip; {@code toString()} prints them as a table. Empty before the
     * first reference.
     */
    public synchronized ConnectionView consumerConnections() {
        return client == null ? new ConnectionView("client", List.of()) : client.connectionView();
    }

    /** This bootstrap's provider connections now (one per consumer connection); empty before the first export. */
    public synchronized ConnectionView providerConnections() {
        return server == null ? new ConnectionView("server", List.of()) : server.connectionView();
    }

    /**
     * A Ferry described by a properties file ({@code ferry.application.name}, {@code ferry.registry.address},
     * {@code ferry.protocol.port}, {@code ferry.consumer.timeout}, {@code ferry.reference.<id>.interface},
     * {@code ferry.service.<interface>.class}, ...; see the README's option reference). {@code -D} system properties
     * of the same names override the file. Its services are exported and its references created before this
     * returns; get a reference with {@link #reference(String, Class)}.
     *
     * @throws IllegalArgumentException naming the file and line, the key or option, and what was expected
     */
    public static Ferry fromProperties(Path file) {
        return fromProperties(file, Map.of());
    }

    /** As {@link #fromProperties(Path)}; a service may name its implementation among {@code beans} by id. */
    public static Ferry fromProperties(Path file, Map<String, ?> beans) {
        return fromLoaded(FileBootstrap.fromProperties(file, Map.copyOf(beans)), null);
    }

    /**
     * A Ferry described by {@code ferry.xml}: elements {@code application}, {@code registry}, {@code protocol},
     * {@code provider}, {@code consumer}, {@code service}, {@code reference} and {@code method}, with Dubbo's
     * attribute names and units (see the README and {@code ferry.xsd} in this jar). A {@code ferry.properties} on the
     * class path fills what the file leaves unset; {@code -D} system properties ({@code ferry.consumer.timeout},
     * ...) override it. Services are exported and references created before this returns.
     *
     * @throws IllegalArgumentException naming the file and line, the element and attribute, and what was expected
     */
    public static Ferry fromXml(Path file) {
        return fromXml(file, Map.of());
    }

    /** As {@link #fromXml(Path)}; {@code <service ref="id">} may name an implementation among {@code beans}. */
    public static Ferry fromXml(Path file, Map<String, ?> beans) {
        return fromLoaded(FileBootstrap.fromXml(file, Map.copyOf(beans)), null);
    }

    /**
     * A Ferry described by {@code ferry.xml} on the class path, else by {@code ferry.properties} there (in a jar or a
     * directory), as {@link #fromXml(Path)} and {@link #fromProperties(Path)} read them.
     *
     * @throws IllegalStateException when the class path has neither
     */
    public static Ferry load() {
        ClassLoader loader = Thread.currentThread().getContextClassLoader();
        FileBootstrap.Loaded loaded = FileBootstrap.fromClassPath(loader, Map.of());
        if (loaded == null) {
            throw new IllegalStateException("no ferry.xml or ferry.properties on the class path");
        }
        // the class path's ferry.properties is then the file itself, not a source of defaults beneath it
        return fromLoaded(loaded, loader.getResource("ferry.xml") == null
                ? Sources.of(System.getProperties(), null) : null);
    }

    /** {@link #fromXml(Path)} for a file whose name ends in {@code .xml}, else {@link #fromProperties(Path)}. */
    public static Ferry load(Path file) {
        return file.getFileName().toString().toLowerCase(java.util.Locale.ROOT).endsWith(".xml") ? fromXml(file)
                : fromProperties(file);
    }

    /**
     * Builds what a file described. {@code sources}: null for the system properties and the class path's
     * {@code ferry.properties}; tests pass their own.
     */
    static Ferry fromLoaded(FileBootstrap.Loaded loaded, Sources sources) {
        Builder builder = builder().protocol(loaded.protocol()).consumer(loaded.consumer()).sources(sources);
        builder.providerDefaults(loaded.provider());
        builder.registrySettings = loaded.registrySettings().isEmpty() ? null : loaded.registrySettings();
        if (loaded.application() != null) {
            builder.application(loaded.application());
        }
        if (loaded.registry() != null) {
            builder.registry(loaded.registry());
        }
        Ferry ferry = builder.build();
        try {
            ferry.refuseStrayOverrides(loaded);
            loaded.services().forEach(ferry::export);
            loaded.references().forEach((id, config) -> {
                ferry.namedConfigs.put(id, config);
                ferry.named.put(id, ferry.reference(config));
            });
            return ferry;
        } catch (RuntimeException e) {
            ferry.close();
            throw e;
        }
    }

    /** -D or the class path's ferry.properties naming a reference or service the file lacks is a mistake. */
    private void refuseStrayOverrides(FileBootstrap.Loaded loaded) {
        Set<String> services = new java.util.HashSet<>();
        loaded.services().forEach(s -> services.add(s.interfaceType().getName()));
        for (Sources.Layer layer : List.of(sources.system(), sources.classPath())) {
            layer.referenceIds().forEach((id, where) -> {
                if (!loaded.references().containsKey(id)) {
                    throw new IllegalArgumentException(where + ": no reference '" + id + "' in the file (expected: "
                            + "one of " + loaded.references().keySet() + ")");
                }
            });
            layer.serviceNames().forEach((name, where) -> {
                if (!services.contains(name)) {
                    throw new IllegalArgumentException(where + ": no service " + name + " in the file (expected: "
                            + "one of " + services + ")");
                }
            });
        }
    }

    /** One line on what runs: the port it serves on (if any) and the references a file declared. */
    public synchronized String describe() {
        return (server == null ? "no services" : "serving on port " + server.port())
                + (named.isEmpty() ? "" : "; references " + named.keySet());
    }

    /** The settings of a reference a file declared, by its id: {@link #settingsOf(ReferenceConfig)} for files. */
    public Resolved settingsOf(String referenceId) {
        ReferenceConfig<?> config = namedConfigs.get(referenceId);
        if (config == null) {
            throw new IllegalArgumentException("reference: '" + referenceId + "' (expected: one of "
                    + namedConfigs.keySet() + ")");
        }
        return settingsOf(config);
    }

    /** A reference a file declared ({@code <reference id>}, {@code ferry.reference.<id>.*}), by its id. */
    public <T> T reference(String id, Class<T> type) {
        Object proxy = named.get(id);
        if (proxy == null) {
            throw new IllegalArgumentException("reference: '" + id + "' (expected: one of " + named.keySet() + ")");
        }
        return type.cast(proxy);
    }

    /** The port the server is bound to; fails if nothing has been exported. */
    public synchronized int port() {
        if (server == null) {
            throw new IllegalStateException("no service exported yet, so no server is running");
        }
        return server.port();
    }

    /**
     * Creates a reference: a proxy implementing the interface and {@link EchoService}. Its calls go through the
     * consumer's and the reference's filters, then the cluster (the providers of its url or its registry, a load
     * balancer, failover of calls that provably did not run), then the chosen provider's connections.
     */
    public <T> T reference(ReferenceConfig<T> given) {
        ReferenceConfig<T> config = withSources(given);
        Resolved resolved = resolve(config);
        ClientOptions.Builder options = consumer.clientOptions().toBuilder()
                .connections(resolved.get(Options.CONNECTIONS)).lazy(resolved.get(Options.LAZY))
                .waitForReady(resolved.get(Options.WAIT_FOR_READY));
        Duration timeout = resolved.get(Options.TIMEOUT);
        OutlierEjection ejection = config.outlierEjection() != null ? config.outlierEjection()
                : consumer.outlierEjection();
        Map<Method, ReferenceHandler.MethodPlan> plans = new HashMap<>();
        for (Method method : config.interfaceType().getMethods()) {
            if (method.getDeclaringClass() != Object.class && !Modifier.isStatic(method.getModifiers())) {
                try {
                    plans.put(method, ReferenceHandler.plan(method, resolved.get(Options.TIMEOUT, method),
                            resolved.get(Options.ONEWAY, method)));
                } catch (IllegalArgumentException e) {
                    String where = resolved.setting(Options.ONEWAY, method).where();
                    boolean fromFile = where.contains(":") || where.startsWith("-D"); // not code, nor annotation
                    throw fromFile ? new IllegalArgumentException(where + ": " + e.getMessage(), e) : e;
                }
            }
        }
        String service = config.interfaceType().getName();
        ClusterDirectory directory;
        Client transport;
        synchronized (this) {
            checkOpen();
            transport = client(); // inside the check: a concurrent close either sees this client or refuses us
            if (config.address() != null) {
                EndpointFactory endpoints = transport.endpoints(config.interfaceType(), config.allowList(),
                        options.build());
                StaticDirectory direct = new StaticDirectory(endpoints.open(config.address(), 100, Duration.ZERO),
                        ticker);
                directories.add(direct);
                directory = direct;
            } else {
                RegistryBridge r = registry();
                if (r == null) {
                    throw new IllegalArgumentException("url: none for " + service
                            + " (expected: a url, or a registry on the Ferry builder)");
                }
                EndpointFactory endpoints = transport.endpoints(config.interfaceType(), config.allowList(),
                        options.build());
                directory = r.subscribe(config.interfaceType(), config.version(), config.group(), endpoints,
                        consumer.connectSpread(), Math.max(15_000, 2 * timeout.toMillis()), ticker, ejection,
                        application.name());
                directories.add(directory);
            }
        }
        List<Filter> filters = new ArrayList<>(consumer.filters());
        filters.addAll(config.filters());
        if (resolved.get(Options.ACTIVES) > 0 || resolved.setForSomeMethod(Options.ACTIVES)) {
            filters.add(ConcurrencyLimit.actives(m -> resolved.get(Options.ACTIVES, m), service));
        }
        Invoker chain = Filter.chain(filters, cluster(config, resolved).join(directory, balancer(config, resolved)));
        if (resolved.get(Options.CHECK) && !resolved.get(Options.LAZY)) {
            awaitAProvider(service, directory, consumer.clientOptions().connectTimeout());
        }
        ReferenceHandler handler = new ReferenceHandler(config.interfaceType(), chain, transport.callbackExecutor(),
                ticker, plans, timeout, config.version(), config.group(), application.name(), directory);
        return config.interfaceType().cast(Proxy.newProxyInstance(config.interfaceType().getClassLoader(),
                new Class<?>[] {config.interfaceType(), EchoService.class}, handler));
    }

    /** {@code check}: a provider must be ready before the reference is handed out; else it is closed again. */
    private void awaitAProvider(String service, ClusterDirectory directory, Duration timeout) {
        String why;
        try {
            why = directory.awaitReady(timeout.toNanos());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            why = "interrupted while waiting";
        }
        if (why == null) {
            return;
        }
        synchronized (this) {
            directories.remove(directory);
        }
        directory.close();
        throw RpcException.notExecuted(RpcStatus.NO_PROVIDER, "reference to " + service + " (" + directory.describe()
                + "): no provider ready within " + timeout.toMillis() + " ms: " + why
                + " (check is on: use check(false) to create the reference anyway)", null);
    }

    private LoadBalancer balancer(ReferenceConfig<?> config, Resolved resolved) {
        if (config.loadBalancer() != null) {
            return config.loadBalancer();
        }
        return switch (resolved.get(Options.LOAD_BALANCE)) {
            case ADAPTIVE -> new AdaptiveBalancer();
            case RANDOM -> new RandomBalancer();
            case ROUNDROBIN -> new RoundRobinBalancer();
            case LEASTACTIVE -> new LeastActiveBalancer();
            case CONSISTENTHASH -> new ConsistentHashBalancer(config.hashArguments());
            case SHORTESTRESPONSE -> new ShortestResponseBalancer();
        };
    }

    private Cluster cluster(ReferenceConfig<?> config, Resolved resolved) {
        return switch (resolved.get(Options.CLUSTER)) {
            case FAILOVER -> new FailoverCluster(m -> resolved.get(Options.RETRIES, m),
                    config.retryBudget() != null ? config.retryBudget() : consumer.retryBudget(), ticker,
                    m -> resolved.get(Options.IDEMPOTENT, m));
            case FAILFAST -> new FailfastCluster();
            case FAILSAFE -> new FailsafeCluster();
            case FAILBACK -> new FailbackCluster(scheduler(), ticker, Duration.ofSeconds(5), 3, 1000);
            case FORKING -> new ForkingCluster(resolved.get(Options.FORKS));
            case BROADCAST -> new BroadcastCluster();
        };
    }

    /** For failback retries: one daemon thread, made on first use, stopped on close. */
    private synchronized ScheduledExecutorService scheduler() {
        if (scheduler == null) {
            scheduler = Executors.newSingleThreadScheduledExecutor(r -> {
                Thread t = new Thread(r, "ferry-failback");
                t.setDaemon(true);
                return t;
            });
        }
        return scheduler;
    }

    /**
     * Sets every field of {@code target} annotated {@link RpcReference} to a new reference. A field without a url
     * uses {@code defaultUrl}; when that is null too, the reference finds its providers in the registry.
     */
    public void inject(Object target, String defaultUrl) {
        for (Class<?> k = target.getClass(); k != null && k != Object.class; k = k.getSuperclass()) {
            for (Field field : k.getDeclaredFields()) {
                RpcReference annotation = field.getAnnotation(RpcReference.class);
                if (annotation == null) {
                    continue;
                }
                if (Modifier.isStatic(field.getModifiers()) || !field.getType().isInterface()) {
                    throw new IllegalArgumentException("@RpcReference " + field + " (expected: an instance field "
                            + "of an interface type)");
                }
                ReferenceConfig.Builder<?> reference = ReferenceConfig.builder(field.getType())
                        .url(annotation.url().isEmpty() ? defaultUrl : annotation.url())
                        .version(annotation.version()).group(annotation.group());
                Duration timeout = AnnotationValues.timeout(field, annotation);
                if (timeout != null) {
                    reference.timeout(timeout);
                }
                Integer connections = AnnotationValues.connections(field, annotation);
                if (connections != null) {
                    reference.connections(connections);
                }
                Object proxy = reference(reference.build());
                try {
                    field.setAccessible(true);
                    field.set(target, proxy);
                } catch (IllegalAccessException | RuntimeException e) {
                    throw new IllegalArgumentException("@RpcReference " + field + ": cannot set it: " + e, e);
                }
            }
        }
    }

    /**
     * Unregisters every service, shuts the server down gracefully (readonly event, grace, refusal of late requests,
     * drain of those in flight), then closes every reference of this bootstrap. Idempotent; also run by a JVM
     * shutdown hook unless disabled.
     */
    @Override
    public void close() {
        List<AutoCloseable> toClose;
        Server toStop;
        RegistryBridge toLeave;
        Client transport;
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            if (shutdownHook != null && Thread.currentThread() != shutdownHook) {
                try {
                    Runtime.getRuntime().removeShutdownHook(shutdownHook);
                } catch (IllegalStateException jvmShuttingDown) {
                    // the hook is running or about to: nothing to remove
                }
            }
            toClose = new ArrayList<>(directories);
            directories.clear();
            toStop = server;
            toLeave = registry;
            transport = client;
        }
        if (toLeave != null) {
            toLeave.close(); // unregister first: consumers stop choosing this provider
        }
        if (toStop != null) {
            toStop.shutdownGracefully(); // in-flight requests may still call out through the references below
        }
        for (AutoCloseable directory : toClose) {
            try {
                directory.close();
            } catch (Exception e) {
                log.warn("closing {}: {}", directory, e.toString());
            }
        }
        if (transport != null) {
            transport.close();
        }
        synchronized (this) {
            if (scheduler != null) {
                scheduler.shutdownNow();
            }
        }
        terminated.countDown();
    }

    /**
     * Blocks until this bootstrap is closed: by {@link #close()}, or by the JVM being asked to stop (its shutdown
     * hook closes the bootstrap gracefully). The way to keep a provider's {@code main} from returning, since Ferry's
     * own threads do not keep the JVM alive.
     * <pre>{@code
     * Ferry provider = Ferry.builder().protocol(ProtocolConfig.builder().port(20880).build()).build();
     * provider.export(new GreeterImpl());
     * provider.awaitTermination();   // until Ctrl-C, SIGTERM or provider.close()
     * }</pre>
     */
    public void awaitTermination() throws InterruptedException {
        terminated.await();
    }

    /** Waits up to {@code timeout} for this bootstrap to be closed; returns whether it was. */
    public boolean awaitTermination(Duration timeout) throws InterruptedException {
        return terminated.await(timeout.toNanos(), TimeUnit.NANOSECONDS);
    }

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException("this Ferry bootstrap is closed");
        }
    }

    private static Class<?> onlyInterface(Class<?> type) {
        Class<?>[] interfaces = type.getInterfaces();
        if (interfaces.length != 1) {
            throw new IllegalArgumentException("@RpcExport on " + type.getName() + ": it implements "
                    + interfaces.length + " interfaces (expected: name the service interface in @RpcExport(value))");
        }
        return interfaces[0];
    }

    public static final class Builder {
        private ApplicationConfig application = ApplicationConfig.defaults();
        private ProtocolConfig protocol = ProtocolConfig.defaults();
        private ConsumerConfig consumer = ConsumerConfig.defaults();
        private RegistryConfig registry;
        private boolean shutdownHook = true;
        private boolean applicationSet;
        private Sources sources;
        /** A file's provider scope and registry settings (code has neither). */
        private Settings providerDefaults = new Settings();
        private Settings registrySettings;

        /** A file's provider scope: defaults for the protocol and every service, placed after sources merge. */
        Builder providerDefaults(Settings provider) {
            this.providerDefaults = provider;
            return this;
        }

        /** The sources besides code: by default the system properties and the class path's ferry.properties. */
        Builder sources(Sources sources) {
            this.sources = sources;
            return this;
        }

        /** Whether a JVM shutdown hook closes this bootstrap (gracefully) for users who forget; default true. */
        public Builder shutdownHook(boolean enabled) {
            this.shutdownHook = enabled;
            return this;
        }

        /** Registers exported services and discovers providers for references without a url. */
        public Builder registry(RegistryConfig registry) {
            this.registry = registry;
            return this;
        }

        public Builder application(ApplicationConfig application) {
            this.application = application;
            this.applicationSet = true;
            return this;
        }

        public Builder protocol(ProtocolConfig protocol) {
            this.protocol = protocol;
            return this;
        }

        public Builder consumer(ConsumerConfig consumer) {
            this.consumer = consumer;
            return this;
        }

        public Ferry build() {
            return new Ferry(this);
        }
    }
}
