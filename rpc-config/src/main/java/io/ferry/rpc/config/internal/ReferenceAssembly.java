package io.ferry.rpc.config.internal;

import io.ferry.rpc.EchoService;
import io.ferry.rpc.Filter;
import io.ferry.rpc.Invoker;
import io.ferry.rpc.RpcException;
import io.ferry.rpc.RpcStatus;
import io.ferry.rpc.cluster.Cluster;
import io.ferry.rpc.cluster.LoadBalancer;
import io.ferry.rpc.config.ConsumerConfig;
import io.ferry.rpc.config.OutlierEjection;
import io.ferry.rpc.config.ReferenceConfig;
import io.ferry.rpc.Ticker;
import io.ferry.rpc.config.extension.ReferenceContext;
import io.ferry.rpc.config.internal.cluster.ClusterDirectory;
import io.ferry.rpc.config.internal.cluster.ListProtection;
import io.ferry.rpc.config.internal.cluster.RetryStats;
import io.ferry.rpc.config.internal.cluster.StaticDirectory;
import io.ferry.rpc.config.option.Options;
import io.ferry.rpc.config.option.Resolved;
import io.ferry.rpc.remoting.Client;
import io.ferry.rpc.remoting.ClientOptions;
import io.ferry.rpc.remoting.EndpointFactory;
import io.ferry.rpc.config.internal.cluster.ProviderEndpoints;
import io.ferry.rpc.config.internal.mock.MockInvoker;
import io.ferry.rpc.config.internal.mock.Stubs;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import io.ferry.rpc.config.internal.cluster.ProviderNamedBalancer;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;
import java.util.Map;
import java.util.concurrent.ScheduledExecutorService;

/**
 * Turns a resolved reference into its proxy: a plan per method, the directory of its providers (its url's, or
 * the registry's), the cluster and balancer its options name (or its own objects), its filters, the {@code check}
 * for a ready provider, and the proxy over that chain. It is also the context the named extensions are made in.
 *
 * @param <T> the service interface
 */
public final class ReferenceAssembly<T> implements ReferenceContext {
    private static final Logger log = LoggerFactory.getLogger(ReferenceAssembly.class);
    /** A redirect of providers away from a reference lasts at least this long, and twice its timeout. */
    private static final long MIN_DRAIN_MILLIS = 15_000;

    private final ReferenceConfig<T> config;
    private final Resolved resolved;
    private final ConsumerConfig consumer;
    private final FerryRuntime runtime;
    private final String service;
    /** The reference's providers' settings, once its directory is open. */
    private final ProviderValuesRelay providerValues = new ProviderValuesRelay();

    /**
     * @param config   the reference with every source applied
     * @param resolved its settings, method by method, with the consumer's defaults beneath
     */
    public ReferenceAssembly(ReferenceConfig<T> config, Resolved resolved, ConsumerConfig consumer,
                             FerryRuntime runtime) {
        this.config = config;
        this.resolved = resolved.withProviders(providerValues); // Dubbo's: the providers' below the reference's
        this.consumer = consumer;
        this.runtime = runtime;
        this.service = config.interfaceName();
    }

    /**
     * The proxy, implementing the interface and {@link EchoService}. Whatever can be refused (a method's plan, a
     * name no extension has) is resolved before the directory opens, so a refused reference leaves nothing open.
     */
    public T proxy() {
        Map<Method, ReferenceHandler.MethodPlan> plans = plans();
        List<Filter> filters = filters();
        Cluster cluster = cluster();
        LoadBalancer balancer = balancer();
        MockInvoker.Plans mocks = MockInvoker.plans(config.interfaceType(), resolved);
        UnaryOperator<T> stub = Stubs.of(config.interfaceType(), resolved.get(Options.STUB),
                resolved.setting(Options.STUB, null).where());
        ClusterDirectory directory = runtime.openDirectory(this::directory);
        providerValues.connect(directory.providerValues());
        Invoker joined = cluster.join(directory, balancer);
        // The mock sits outside the filters, as Dubbo's MockClusterInvoker sits outside its cluster and filters: it
        // sees each call once, after every attempt the cluster made within the call's deadline, so it answers
        // the call's final failure, not one attempt's; and the observation (the outermost filter) and the
        // actives limit see the real call and its real failure (rpc.status TIMEOUT, NO_PROVIDER, ...), not the
        // mock's answer. A forced mock never enters the chain: no filter sees it.
        Invoker chain = mocks.around(Filter.chain(filters, joined), runtime.timer(), runtime.ticker());
        if (!mocks.forced().isEmpty()) {
            log.warn("reference to {}: forced mock, no provider is called for {}", service, mocks.forced());
        }
        if (resolved.get(Options.CHECK) && !resolved.get(Options.LAZY) && !mocks.forcesAll(plans.keySet())) {
            Duration connectTimeout = consumer.clientOptions().connectTimeout();
            if (!runtime.deferCheck(new FerryRuntime.PendingCheck(service, directory, connectTimeout))) {
                awaitAProvider(directory, connectTimeout);
            }
        }
        Class<T> type = config.interfaceType();
        ReferenceHandler handler = new ReferenceHandler(
                new ReferenceHandler.Target(type, service, config.version(), config.group(), runtime.application()),
                chain, runtime.client().callbackExecutor(), runtime.ticker(), plans, resolved.get(Options.TIMEOUT),
                directory);
        T proxy = type.cast(Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type, EchoService.class},
                handler));
        T handedOut = stub == null ? proxy : stubbed(stub, proxy, directory);
        runtime.created(new CreatedReference(config, resolved, directory));
        runtime.meters().referenceOpened(new ReferenceStats(service, config.group() + "/" + config.version(),
                directory, joined instanceof RetryStats retries ? retries : null));
        return handedOut;
    }

    /** The stub made around the proxy; a stub whose constructor fails leaves nothing open. */
    private T stubbed(UnaryOperator<T> stub, T proxy, ClusterDirectory directory) {
        try {
            return stub.apply(proxy);
        } catch (RuntimeException e) {
            runtime.untrack(directory);
            directory.close();
            throw e;
        }
    }

    private Map<Method, ReferenceHandler.MethodPlan> plans() {
        Map<Method, ReferenceHandler.MethodPlan> plans = new HashMap<>();
        for (Method method : config.interfaceType().getMethods()) {
            if (method.getDeclaringClass() != Object.class && !Modifier.isStatic(method.getModifiers())) {
                try {
                    plans.put(method, ReferenceHandler.plan(method, resolved.get(Options.TIMEOUT, method),
                            resolved.get(Options.ONEWAY, method), resolved.get(Options.ASYNC, method),
                            providersTimeout(method)));
                } catch (IllegalArgumentException e) {
                    String where = resolved.setting(Options.ONEWAY, method).where();
                    boolean fromFile = where.contains(":") || where.startsWith("-D"); // not code, nor annotation
                    throw fromFile ? new IllegalArgumentException(where + ": " + e.getMessage(), e) : e;
                }
            }
        }
        return plans;
    }

    /**
     * Where the method sets no timeout of its own, the one in force at each call, the providers' values as the
     * list is then (see Resolved: theirs for the method beat the reference's for the whole); else null: the
     * method's own, fixed.
     */
    private LongSupplier providersTimeout(Method method) {
        Resolved.Lookup timeout = resolved.lookup(Options.TIMEOUT, method);
        if (timeout.fixed()) {
            return null;
        }
        return () -> ((Duration) timeout.now().value()).toNanos();
    }

    /** The reference's providers: its url's one, or those the registry announces. */
    private ClusterDirectory directory(Client transport) {
        ClientOptions options = consumer.clientOptions().toBuilder()
                .connections(resolved.get(Options.CONNECTIONS)).lazy(resolved.get(Options.LAZY))
                .waitForReady(resolved.get(Options.WAIT_FOR_READY)).build();
        ClientOptions tlsOptions = options.toBuilder().tls(consumer.tlsOptions()).build();
        DirectUrl url = config.address() == null ? null : DirectUrl.parse(resolved.get(Options.URL));
        if (resolved.get(Options.SSL_ENABLED) || (url != null && url.sslEnabled())) {
            options = tlsOptions; // TLS to every provider, or no call
        }
        if (url != null) {
            EndpointFactory endpoints = transport.endpoints(config.interfaceType(), config.allowList(), options);
            return new StaticDirectory(endpoints.open(url.address(), 100, Duration.ZERO), runtime.clocks(),
                    url.token());
        }
        RegistryBridge registry = runtime.registry();
        if (registry == null) {
            throw new IllegalArgumentException("url: none for " + service
                    + " (expected: a url, or a registry on the Ferry builder)");
        }
        EndpointFactory asConfigured = transport.endpoints(config.interfaceType(), config.allowList(), options);
        Supplier<EndpointFactory> tls = () -> transport.endpoints(config.interfaceType(), config.allowList(),
                tlsOptions);
        if (!consumer.tlsOptions().values().options().isEmpty()) {
            EndpointFactory ready = tls.get(); // the ssl config's files are read and checked now, not on first use
            tls = () -> ready;
        }
        ProviderEndpoints endpoints = new ProviderEndpoints(asConfigured, tls);
        OutlierEjection ejection = config.outlierEjection() != null ? config.outlierEjection()
                : consumer.outlierEjection();
        long drainMillis = Math.max(MIN_DRAIN_MILLIS, 2 * resolved.get(Options.TIMEOUT).toMillis());
        return registry.subscribe(new RegistryBridge.Subscription(config.interfaceType(), service, config.version(),
                config.group(), endpoints, consumer.connectSpread(), drainMillis, ejection,
                new ListProtection(resolved.get(Options.EMPTY_PROTECTION), resolved.get(Options.UNLISTED_GRACE))));
    }

    /**
     * The observation of calls, where this Ferry has one; then the named filters (the default ones, such as the
     * {@code actives} limit, then the consumer's and the reference's lists), then the consumer's filter objects and
     * the reference's.
     */
    private List<Filter> filters() {
        List<Filter> filters = new ArrayList<>();
        if (runtime.instrumentation() != null) {
            filters.add(runtime.instrumentation().consumerFilter()); // outermost: what the caller waits for
        }
        filters.addAll(NamedExtensions.filters(this));
        filters.addAll(consumer.filters());
        filters.addAll(config.filters());
        return filters;
    }

    /** {@code check}: a provider must be ready before the reference is handed out; else it is closed again. */
    private void awaitAProvider(ClusterDirectory directory, Duration timeout) {
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
        runtime.untrack(directory);
        directory.close();
        throw RpcException.notExecuted(RpcStatus.NO_PROVIDER, "reference to " + service + " (" + directory.describe()
                + "): no provider ready within " + timeout.toMillis() + " ms: " + why
                + " (" + CHECK_HINT + ")", null);
    }

    /**
     * How to turn {@code check} off, in each form a user may have set it in: the reference does not know which
     * front end made it.
     */
    public static final String CHECK_HINT = "check is on: to create the reference anyway, set check=\"false\" on "
            + "its <reference> or the <consumer> in XML, ferry.reference.<id>.check=false or "
            + "ferry.consumer.check=false in properties, @RpcReference(check = \"false\"), or check(false) on the "
            + "ReferenceConfig or ConsumerConfig builder";

    /**
     * The reference's own balancer or the one it names; where a method names one, or the reference none, the one
     * named for each call's method: the method's own, else the reference's, else its providers' URLs' (as a Dubbo
     * consumer takes their {@code loadbalance}), else the default.
     */
    private LoadBalancer balancer() {
        if (config.loadBalancer() != null) {
            return config.loadBalancer();
        }
        LoadBalancer named = NamedExtensions.balancer(this);
        return new ProviderNamedBalancer(named, resolved.get(Options.LOAD_BALANCE),
                name -> NamedExtensions.balancer(this, name), resolved.perCall(Options.LOAD_BALANCE));
    }

    private Cluster cluster() {
        return config.clusterInstance() != null ? config.clusterInstance() : NamedExtensions.cluster(this);
    }

    @Override
    public ReferenceConfig<?> reference() {
        return config;
    }

    @Override
    public ConsumerConfig consumer() {
        return consumer;
    }

    @Override
    public Resolved settings() {
        return resolved;
    }

    @Override
    public String application() {
        return runtime.application();
    }

    @Override
    public Ticker ticker() {
        return runtime.ticker();
    }

    @Override
    public ScheduledExecutorService timer() {
        return runtime.timer();
    }
}
