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
import io.ferry.rpc.RpcMethod;
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
import java.util.HashSet;
import java.util.Set;
import java.nio.file.Path;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.ScheduledExecutorService;
import java.util.List;
import java.util.Map;

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

    private Ferry(Builder b) {
        this.application = b.application;
        this.protocol = b.protocol;
        this.consumer = b.consumer;
        this.registryConfig = b.registry;
        this.shutdownHook = b.shutdownHook ? new Thread(this::close, "ferry-shutdown") : null;
        if (shutdownHook != null) {
            Runtime.getRuntime().addShutdownHook(shutdownHook);
        }
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
    public synchronized int export(ServiceConfig<?> config) {
        checkOpen();
        List<Filter> filters = new ArrayList<>(protocol.filters());
        filters.addAll(config.filters());
        if (config.executes() > 0) {
            filters.add(ConcurrencyLimit.executes(config.executes(), config.interfaceType().getName()));
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
        return fromLoaded(FileBootstrap.fromProperties(file, systemProperties(), Map.copyOf(beans)));
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
        return fromLoaded(FileBootstrap.fromXml(file, Thread.currentThread().getContextClassLoader(),
                systemProperties(), Map.copyOf(beans)));
    }

    /** {@link #fromXml(Path)} for a file whose name ends in {@code .xml}, else {@link #fromProperties(Path)}. */
    public static Ferry load(Path file) {
        return file.getFileName().toString().endsWith(".xml") ? fromXml(file) : fromProperties(file);
    }

    private static Map<String, String> systemProperties() {
        Map<String, String> system = new HashMap<>();
        System.getProperties().forEach((k, v) -> system.put(String.valueOf(k), String.valueOf(v)));
        return system;
    }

    /** Builds what a file described; package-private for tests that pass their own overrides. */
    static Ferry fromLoaded(FileBootstrap.Loaded loaded) {
        Builder builder = builder().application(loaded.application()).protocol(loaded.protocol())
                .consumer(loaded.consumer());
        if (loaded.registry() != null) {
            builder.registry(loaded.registry());
        }
        Ferry ferry = builder.build();
        try {
            loaded.services().forEach(ferry::export);
            loaded.references().forEach((id, config) -> ferry.named.put(id, ferry.reference(config)));
            return ferry;
        } catch (RuntimeException e) {
            ferry.close();
            throw e;
        }
    }

    /** One line on what runs: the port it serves on (if any) and the references a file declared. */
    public synchronized String describe() {
        return (server == null ? "no services" : "serving on port " + server.port())
                + (named.isEmpty() ? "" : "; references " + named.keySet());
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
    public <T> T reference(ReferenceConfig<T> config) {
        ClientOptions.Builder options = consumer.clientOptions().toBuilder();
        if (config.connections() != null) {
            options.connections(config.connections());
        }
        if (config.lazy() != null) {
            options.lazy(config.lazy());
        }
        if (config.waitForReady() != null) {
            options.waitForReady(config.waitForReady());
        }
        Duration timeout = config.timeout() != null ? config.timeout() : consumer.timeout();
        int retries = config.retries() != null ? config.retries() : consumer.retries();
        OutlierEjection ejection = config.outlierEjection() != null ? config.outlierEjection()
                : consumer.outlierEjection();
        Map<Method, ReferenceHandler.MethodPlan> plans = new HashMap<>();
        for (Method method : config.interfaceType().getMethods()) {
            if (method.getDeclaringClass() != Object.class && !Modifier.isStatic(method.getModifiers())) {
                MethodConfig methodConfig = config.methods().get(method.getName());
                plans.put(method, ReferenceHandler.plan(method, methodConfig == null ? null : methodConfig.timeout(),
                        timeout, methodConfig == null ? null : methodConfig.oneway()));
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
        int actives = config.actives() != null ? config.actives() : consumer.actives();
        if (actives > 0) {
            filters.add(ConcurrencyLimit.actives(actives, service));
        }
        Invoker chain = Filter.chain(filters, cluster(config, retries, plans.keySet()).join(directory,
                balancer(config)));
        boolean check = config.check() != null ? config.check() : consumer.check();
        boolean lazy = config.lazy() != null ? config.lazy() : consumer.clientOptions().lazy();
        if (check && !lazy) {
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

    private LoadBalancer balancer(ReferenceConfig<?> config) {
        if (config.loadBalancer() != null) {
            return config.loadBalancer();
        }
        LoadBalance kind = config.loadBalance() != null ? config.loadBalance() : consumer.loadBalance();
        return switch (kind) {
            case ADAPTIVE -> new AdaptiveBalancer();
            case RANDOM -> new RandomBalancer();
            case ROUNDROBIN -> new RoundRobinBalancer();
            case LEASTACTIVE -> new LeastActiveBalancer();
            case CONSISTENTHASH -> new ConsistentHashBalancer(config.hashArguments());
            case SHORTESTRESPONSE -> new ShortestResponseBalancer();
        };
    }

    private Cluster cluster(ReferenceConfig<?> config, int retries, Set<Method> methods) {
        ClusterMode mode = config.cluster() != null ? config.cluster() : consumer.cluster();
        return switch (mode) {
            case FAILOVER -> {
                RetryBudget budget = config.retryBudget() != null ? config.retryBudget() : consumer.retryBudget();
                Set<Method> idempotent = new HashSet<>();
                for (Method method : methods) {
                    MethodConfig methodConfig = config.methods().get(method.getName());
                    RpcMethod annotation = method.getAnnotation(RpcMethod.class);
                    if (methodConfig != null && methodConfig.idempotent() != null ? methodConfig.idempotent()
                            : annotation != null && annotation.idempotent()) {
                        idempotent.add(method);
                    }
                }
                yield new FailoverCluster(retries, budget, ticker, idempotent::contains);
            }
            case FAILFAST -> new FailfastCluster();
            case FAILSAFE -> new FailsafeCluster();
            case FAILBACK -> new FailbackCluster(scheduler(), ticker, Duration.ofSeconds(5), 3, 1000);
            case FORKING -> new ForkingCluster(config.forks() != null ? config.forks() : consumer.forks());
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
