package io.ferry.rpc.config;

import io.ferry.rpc.EchoService;
import io.ferry.rpc.RpcExport;
import io.ferry.rpc.RpcException;
import io.ferry.rpc.RpcReference;
import io.ferry.rpc.RpcStatus;
import io.ferry.rpc.Ticker;
import io.ferry.rpc.config.internal.AnnotationValues;
import io.ferry.rpc.config.internal.ExportAssembly;
import io.ferry.rpc.config.internal.FerryRuntime;
import io.ferry.rpc.config.internal.NamedExtensions;
import io.ferry.rpc.config.internal.ReferenceAssembly;
import io.ferry.rpc.config.internal.ReferenceInjector;
import io.ferry.rpc.config.internal.Statuses;
import io.ferry.rpc.config.internal.admin.AdminPort;
import io.ferry.rpc.config.internal.Observed;
import io.ferry.rpc.config.internal.OwnMetrics;
import io.ferry.rpc.config.option.MetricsExport;
import io.ferry.rpc.config.option.Options;
import io.ferry.rpc.config.internal.files.FileBootstrap;
import io.ferry.rpc.config.internal.files.Sources;
import io.ferry.rpc.config.option.Resolved;
import io.ferry.rpc.config.option.Settings;
import io.ferry.rpc.remoting.AdminServer;
import io.ferry.rpc.remoting.ConnectionView;
import io.ferry.rpc.remoting.Server;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

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
 * their providers there. The server starts with the first export. With {@code qos-enable} on its
 * {@link ApplicationConfig}, the admin port starts with the bootstrap (health, services, connections, offline and
 * online for deploys; see the README's Operations). {@link #close()} first unregisters, then shuts the server down
 * gracefully, closes every reference, and releases the threads and connections it held; the admin port closes
 * last. Thread-safe.
 *
 * <p>This class owns the lifecycle; the configuration's layering, and the assembly of references and exports,
 * are done by the classes it delegates to.
 */
public final class Ferry implements AutoCloseable {
    private final ConfigLayers layers;
    private final FerryRuntime runtime;
    private final Thread shutdownHook;
    private final CountDownLatch terminated = new CountDownLatch(1);
    private final DeclaredReferences declared;

    private Ferry(Builder b) {
        Sources sources = b.sources != null ? b.sources
                : Sources.of(System.getProperties(), Thread.currentThread().getContextClassLoader());
        this.layers = new ConfigLayers(sources, b);
        this.declared = b.declared != null ? b.declared : new DeclaredReferences();
        NamedExtensions.check(layers.consumer().settings()); // a name nothing registers fails at start
        NamedExtensions.check(layers.serviceDefaults());
        Observed observed = observed(b.observability, layers.application());
        try {
            this.runtime = new FerryRuntime(layers.consumer().ioThreads(), layers.protocol().serverOptions(),
                    layers.registry(), layers.application().name(), layers.application().metadata(),
                    Ticker.system(), Clock.systemUTC(), observed);
        } catch (RuntimeException | Error e) {
            if (observed.owned() != null) {
                try {
                    observed.owned().close();
                } catch (Exception closing) {
                    e.addSuppressed(closing);
                }
            }
            throw e;
        }
        if (b.checkReferencesLater) {
            runtime.deferChecks();
        }
        if (layers.application().qosEnable()) {
            try {
                runtime.admin(AdminPort.start(layers.application(), layers.registry(), runtime,
                        b.adminRequestTimeout));
            } catch (RuntimeException e) {
                runtime.close();
                throw e;
            }
        }
        this.shutdownHook = b.shutdownHook ? new Thread(this::close, "ferry-shutdown") : null;
        if (shutdownHook != null) {
            Runtime.getRuntime().addShutdownHook(shutdownHook);
        }
    }

    public static Builder builder() {
        return new Builder();
    }

    /**
     * What observes this Ferry: the registries code gave it, or the one a file asked it to make for itself
     * ({@code metrics=prometheus}), never both.
     */
    private static Observed observed(Observability given, ApplicationConfig application) {
        if (application.metrics() == MetricsExport.NONE) {
            return given == null ? Observed.NONE : given.parts();
        }
        Settings.Setting set = application.settings().setting(Options.METRICS);
        String where = set == null || set.where() == null ? "" : set.where();
        String option = "metrics=prometheus" + (where.isEmpty() ? "" : " (" + where + ")");
        if (given != null) {
            throw new IllegalArgumentException(option + ": Ferry would make a Prometheus registry of its own, but "
                    + "code (or Spring Boot's starter) gave it " + given + " too: keep one (leave metrics out, or "
                    + "leave out Ferry.Builder.observability)");
        }
        if (!application.qosEnable()) {
            throw new IllegalArgumentException(option + ": the admin port, which serves the meters at /metrics, "
                    + "is off: set qos-enable=true too (or leave metrics out)");
        }
        String missing = OwnMetrics.missingJar();
        if (missing != null) {
            throw new IllegalArgumentException(option + ": " + missing + " is not on the class path (add it, or "
                    + "leave metrics out)");
        }
        return Observability.ownPrometheus();
    }

    public ApplicationConfig application() {
        return layers.application();
    }

    /** The registry in force (code or file, with -D and the class path's ferry.properties applied), or null. */
    public RegistryConfig registryConfig() {
        return layers.registry();
    }

    /** The consumer defaults in force: the code's, with {@code -D} and the class path's ferry.properties applied. */
    public ConsumerConfig consumer() {
        return layers.consumer();
    }

    /** The protocol in force: the code's, with {@code -D} and the class path's ferry.properties applied. */
    public ProtocolConfig protocol() {
        return layers.protocol();
    }

    /** Exports a service, starting the server on first use. Returns the bound port. */
    public synchronized int export(ServiceConfig<?> given) {
        runtime.checkOpen();
        layers.refuseUnusedServerCertificate();
        ServiceConfig<?> config = layers.layered(given);
        return ExportAssembly.export(config, ConfigLayers.resolve(config), layers.serviceDefaults(),
                layers.protocol(), runtime);
    }

    /** Exports an object whose class is annotated {@link RpcExport}. Returns the bound port. */
    @SuppressWarnings({"unchecked", "rawtypes"})
    public int export(Object implementation) {
        Class iface = AnnotationValues.exportedInterface(implementation.getClass());
        return export(ServiceConfig.builder(iface, implementation).build());
    }

    /**
     * Creates a reference: a proxy implementing the interface and {@link EchoService}. Its calls go through the
     * consumer's and the reference's filters, then the cluster (the providers of its url or its registry, a load
     * balancer, failover of calls that provably did not run), then the chosen provider's connections.
     */
    public <T> T reference(ReferenceConfig<T> given) {
        ReferenceConfig<T> config = layers.layered(given);
        return new ReferenceAssembly<>(config, layers.resolve(config), layers.consumer(), runtime).proxy();
    }

    /**
     * Checks, once, every reference created with {@code check} (the default) since this Ferry was built with
     * {@link Builder#checkReferencesLater()}: waits for a ready provider of each, all at the same time and each
     * within its consumer's connect timeout. From then on, references check as they are created. What a host such
     * as Spring calls once it has exported its own services, so that a context may reference what it exports
     * (Dubbo's deployer: export, then refer). Without {@code checkReferencesLater}, returns at once.
     *
     * @throws RpcException NO_PROVIDER, naming every reference without a ready provider and how to turn its check
     *                      off; the references stay open until this Ferry closes
     */
    public void checkReferences() {
        List<String> failed;
        try {
            failed = runtime.checkDeferred();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            failed = List.of("interrupted while waiting for the references' providers");
        }
        if (!failed.isEmpty()) {
            throw RpcException.notExecuted(RpcStatus.NO_PROVIDER, failed.size() + " reference(s) without a provider: "
                    + String.join("; ", failed) + " (" + ReferenceAssembly.CHECK_HINT + ")", null);
        }
    }

    /**
     * Sets every field of {@code target} annotated {@link RpcReference} to a new reference. A field without a url
     * uses {@code defaultUrl}; when that is null too, the reference finds its providers in the registry.
     */
    public void inject(Object target, String defaultUrl) {
        new ReferenceInjector(this::reference).inject(target, defaultUrl);
    }

    /**
     * The settings a reference would have here, each with where it was set: its methods', its own, this
     * bootstrap's consumer's (code with {@code -D} and the class path's {@code ferry.properties} applied), then the
     * built-in defaults. What {@link #reference(ReferenceConfig)} uses, without creating anything; where nothing
     * of the reference or its consumer sets {@code timeout}, {@code retries}, {@code loadbalance} or {@code actives},
     * its providers' registry URLs may give the value its calls take (shown as "default, unless the providers' URLs
     * give one"; {@link #settingsOf(String)} shows theirs for a reference already made).
     */
    public Resolved settingsOf(ReferenceConfig<?> config) {
        return layers.resolve(layers.layered(config));
    }

    /** The settings a service would be exported with here, as {@link #settingsOf(ReferenceConfig)} for references. */
    public Resolved settingsOf(ServiceConfig<?> config) {
        return ConfigLayers.resolve(layers.layered(config));
    }

    /**
     * What this Ferry runs now, for a health check: the registry's session, the services exported and whether the
     * registry lists them, the references made and their providers known and ready. Never blocks on the network.
     */
    public FerryStatus status() {
        return Statuses.of(runtime);
    }

    /**
     * This bootstrap's consumer connections now, each with its state, IO thread, pending calls, bytes queued, time
     * spent unwritable and last heartbeat round trip; {@code toString()} prints them as a table. Empty before the
     * first reference.
     */
    public ConnectionView consumerConnections() {
        return runtime.consumerConnections();
    }

    /** This bootstrap's provider connections now (one per consumer connection); empty before the first export. */
    public ConnectionView providerConnections() {
        return runtime.providerConnections();
    }

    /** The port the server is bound to; fails if nothing has been exported. */
    public int port() {
        Server server = runtime.runningServer();
        if (server == null) {
            throw new IllegalStateException("no service exported yet, so no server is running");
        }
        return server.port();
    }

    /**
     * The port the admin port is bound to (useful with {@code qos-port} 0).
     *
     * @throws IllegalStateException when {@code qos-enable} is false
     */
    public int adminPort() {
        AdminServer admin = runtime.admin();
        if (admin == null) {
            throw new IllegalStateException("qos-enable is false, so no admin port is running");
        }
        return admin.port();
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
        return file.getFileName().toString().toLowerCase(Locale.ROOT).endsWith(".xml") ? fromXml(file)
                : fromProperties(file);
    }

    /** Builds what a file described; {@code sources}: null for -D and the class path's, tests pass their own. */
    static Ferry fromLoaded(FileBootstrap.Loaded loaded, Sources sources) {
        return FileFerry.build(loaded, sources, new DeclaredReferences());
    }

    /** One line on what runs: the port it serves on (if any) and the references a file declared. */
    public String describe() {
        Server server = runtime.runningServer();
        return (server == null ? "no services" : "serving on port " + server.port())
                + (declared.ids().isEmpty() ? "" : "; references " + declared.ids());
    }

    /**
     * The settings of a reference a file declared, by its id: {@link #settingsOf(ReferenceConfig)} for files, with
     * what its providers' registry URLs give now (their {@code timeout}, {@code retries}, ... where the reference
     * sets none, as its calls take them) once the reference is made.
     */
    public Resolved settingsOf(String referenceId) {
        ReferenceConfig<?> config = declared.config(referenceId);
        for (io.ferry.rpc.config.internal.CreatedReference created : runtime.references()) {
            if (referenceId.equals(created.config().id())) {
                return created.settings();
            }
        }
        return settingsOf(config);
    }

    /** A reference a file declared ({@code <reference id>}, {@code ferry.reference.<id>.*}), by its id. */
    public <T> T reference(String id, Class<T> type) {
        return declared.proxy(id, type);
    }

    /**
     * Unregisters every service, shuts the server down gracefully (readonly event, grace, refusal of late requests,
     * drain of those in flight), then closes every reference of this bootstrap. Idempotent; also run by a JVM
     * shutdown hook unless disabled.
     */
    @Override
    public void close() {
        if (!runtime.close()) {
            return;
        }
        if (shutdownHook != null && Thread.currentThread() != shutdownHook) {
            try {
                Runtime.getRuntime().removeShutdownHook(shutdownHook);
            } catch (IllegalStateException jvmShuttingDown) {
                // the hook is running or about to: nothing to remove
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

    ConfigLayers layers() {
        return layers;
    }

    public static final class Builder {
        // package-private: ConfigLayers reads them
        ApplicationConfig application = ApplicationConfig.defaults();
        ProtocolConfig protocol = ProtocolConfig.defaults();
        ConsumerConfig consumer = ConsumerConfig.defaults();
        SslConfig ssl = SslConfig.defaults();
        RegistryConfig registry;
        boolean shutdownHook = true;
        Sources sources;
        /** A file's provider scope and registry settings (code has neither). */
        Settings providerDefaults = new Settings();
        Settings registrySettings;
        DeclaredReferences declared;
        Observability observability;
        Duration adminRequestTimeout = AdminPort.REQUEST_TIMEOUT;
        boolean checkReferencesLater;

        /** How long the admin port waits for a request to arrive; tests shorten it. */
        Builder adminRequestTimeout(Duration timeout) {
            this.adminRequestTimeout = timeout;
            return this;
        }

        /** Where a file's references are kept by id. */
        Builder declared(DeclaredReferences declared) {
            this.declared = declared;
            return this;
        }

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

        /**
         * References created with {@code check} do not wait for a ready provider as they are created;
         * {@link Ferry#checkReferences()} checks them all later. For a host that creates references while it builds
         * its objects and exports its services after (Spring: references while the context refreshes, services
         * once it has), so that references to its own services can check them. Default: each reference checks as
         * it is created.
         */
        public Builder checkReferencesLater() {
            this.checkReferencesLater = true;
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

        /**
         * TLS certificates, keys and trust: the protocol's ({@code server-*}) when its {@code ssl-enabled} is true,
         * references' ({@code client-*}) when they connect with TLS. See {@link SslConfig}.
         */
        public Builder ssl(SslConfig ssl) {
            this.ssl = ssl;
            return this;
        }

        /**
         * Observes every call with Micrometer: metrics, and spans whose trace context crosses to Dubbo and Ferry
         * peers alike. See {@link Observability}. Without it nothing of Micrometer is loaded or paid for.
         */
        public Builder observability(Observability observability) {
            this.observability = observability;
            return this;
        }

        public Ferry build() {
            return new Ferry(this);
        }
    }
}
