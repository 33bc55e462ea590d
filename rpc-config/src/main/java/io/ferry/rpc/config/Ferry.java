package io.ferry.rpc.config;

import io.ferry.rpc.EchoService;
import io.ferry.rpc.RpcExport;
import io.ferry.rpc.RpcReference;
import io.ferry.rpc.config.internal.CallTarget;
import io.ferry.rpc.config.internal.ClusterTarget;
import io.ferry.rpc.config.internal.DirectTarget;
import io.ferry.rpc.config.internal.ImplementationInvoker;
import io.ferry.rpc.config.internal.ReferenceHandler;
import io.ferry.rpc.config.internal.RegistryUrls;
import io.ferry.rpc.registry.Registry;
import io.ferry.rpc.registry.ServiceKey;
import io.ferry.rpc.registry.ZookeeperRegistry;
import io.ferry.rpc.remoting.ClientOptions;
import io.ferry.rpc.remoting.ClientTransport;
import io.ferry.rpc.remoting.MethodSchema;
import io.ferry.rpc.remoting.ProviderClient;
import io.ferry.rpc.remoting.ProviderService;
import io.ferry.rpc.remoting.Server;
import io.ferry.rpc.remoting.ServiceSchema;
import io.ferry.rpc.remoting.ServiceTable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
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
    private final ServiceTable services = new ServiceTable();
    private final List<CallTarget> targets = new ArrayList<>();
    private ClientTransport transport;
    private Registry registry;
    private final Thread shutdownHook;
    private Server server;
    private boolean closed;

    private Ferry(Builder b) {
        this.application = b.application;
        this.protocol = b.protocol;
        this.consumer = b.consumer;
        this.registryConfig = b.registry;
        if (consumer.ioThreads() != null) {
            ClientTransport.configure(consumer.ioThreads());
        }
        this.shutdownHook = b.shutdownHook ? new Thread(this::close, "ferry-shutdown") : null;
        if (shutdownHook != null) {
            Runtime.getRuntime().addShutdownHook(shutdownHook);
        }
    }

    /** This bootstrap's share of the process's client transport, taken with its first reference. */
    private synchronized ClientTransport transport() {
        if (transport == null) {
            transport = ClientTransport.acquire();
        }
        return transport;
    }

    /** The registry, connected on first use. */
    private synchronized Registry registry() {
        if (registryConfig == null) {
            return null;
        }
        if (registry == null) {
            registry = new ZookeeperRegistry(registryConfig.options().forApplication(application.name()));
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
        ServiceSchema schema = ServiceSchema.of(config.interfaceType(), config.allowList());
        services.add(new ProviderService(schema, config.version(), config.group(),
                new ImplementationInvoker(config.implementation()), config.timeout(), config.methodTimeouts()));
        if (server == null) {
            server = Server.start(protocol.serverOptions(), services);
        }
        Registry r = registry();
        if (r != null) {
            r.register(RegistryUrls.provider(schema, RegistryUrls.advertisedHost(protocol.advertisedHost(),
                    protocol.serverOptions().host()), server.port(), config.version(), config.group(),
                    config.timeout(), protocol.serverOptions().heartbeat(), application.name()));
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

    /** The port the server is bound to; fails if nothing has been exported. */
    public synchronized int port() {
        if (server == null) {
            throw new IllegalStateException("no service exported yet, so no server is running");
        }
        return server.port();
    }

    /** Creates a reference: a proxy implementing the interface and {@link EchoService}. */
    public <T> T reference(ReferenceConfig<T> config) {
        ClientOptions.Builder options = consumer.clientOptions().toBuilder();
        if (config.connections() != null) {
            options.connections(config.connections());
        }
        if (config.lazy() != null) {
            options.lazy(config.lazy());
        }
        ServiceSchema schema = ServiceSchema.of(config.interfaceType(), config.allowList());
        Duration timeout = config.timeout() != null ? config.timeout() : consumer.timeout();
        Map<Method, ReferenceHandler.MethodPlan> plans = new HashMap<>();
        for (Method method : config.interfaceType().getMethods()) {
            MethodSchema methodSchema = schema.method(method);
            if (methodSchema != null) {
                MethodConfig methodConfig = config.methods().get(method.getName());
                plans.put(method, ReferenceHandler.plan(methodSchema,
                        methodConfig == null ? null : methodConfig.timeout(), timeout,
                        methodConfig == null ? null : methodConfig.oneway()));
            }
        }
        CallTarget target;
        ClientTransport share;
        synchronized (this) {
            checkOpen();
            share = transport(); // inside the check: a concurrent close either sees this share or refuses us
            if (config.address() != null) {
                target = new DirectTarget(ProviderClient.open(config.address(), options.build()));
            } else {
                Registry r = registry();
                if (r == null) {
                    throw new IllegalArgumentException("url: none for " + config.interfaceType().getName()
                            + " (expected: a url, or a registry on the Ferry builder)");
                }
                ClusterTarget cluster = new ClusterTarget(schema.name(), options.build(), consumer.connectSpread(),
                        Math.max(15_000, 2 * timeout.toMillis()));
                r.subscribe(new ServiceKey(schema.name(), config.version(), config.group()), cluster);
                r.register(RegistryUrls.consumer(schema, config.version(), config.group(), application.name()));
                target = cluster;
            }
            targets.add(target);
        }
        ReferenceHandler handler = new ReferenceHandler(config.interfaceType(), schema, target, share, plans,
                timeout, config.version(), config.group(), application.name());
        return config.interfaceType().cast(Proxy.newProxyInstance(config.interfaceType().getClassLoader(),
                new Class<?>[] {config.interfaceType(), EchoService.class}, handler));
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
                if (annotation.timeoutMillis() > 0) {
                    reference.timeout(Duration.ofMillis(annotation.timeoutMillis()));
                }
                if (annotation.connections() > 0) {
                    reference.connections(annotation.connections());
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
        List<CallTarget> toClose;
        Server toStop;
        Registry toLeave;
        ClientTransport share;
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
            toClose = new ArrayList<>(targets);
            targets.clear();
            toStop = server;
            toLeave = registry;
            share = transport;
        }
        if (toLeave != null) {
            toLeave.close(); // unregister first: consumers stop choosing this provider
        }
        if (toStop != null) {
            toStop.shutdownGracefully(); // in-flight requests may still call out through the references below
        }
        for (CallTarget target : toClose) {
            target.close();
        }
        if (share != null) {
            share.release();
        }
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
