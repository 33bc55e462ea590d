package io.ferry.rpc.config;

import io.ferry.rpc.ClassAllowList;
import io.ferry.rpc.Filter;
import io.ferry.rpc.GenericService;
import io.ferry.rpc.RpcService;
import io.ferry.rpc.cluster.Cluster;
import io.ferry.rpc.cluster.LoadBalancer;
import io.ferry.rpc.config.internal.AnnotationValues;
import io.ferry.rpc.config.internal.DirectUrl;
import io.ferry.rpc.option.Option;
import io.ferry.rpc.config.option.Options;
import io.ferry.rpc.option.Scope;
import io.ferry.rpc.config.option.Settings;
import io.ferry.rpc.spi.Validate;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One remote service to call. What is not set here comes from {@link RpcService} on the interface, then from the
 * {@link ConsumerConfig}; a method's settings ({@link MethodConfig}, {@code @RpcMethod}) win over both for its
 * calls. The options are the option table's at the reference scope ({@link Options}, the README's reference):
 * {@code url} (none: the bootstrap's registry; {@code dubbo://host:port}: that provider directly, and
 * {@code ?token=...} the token it asks for), {@code version},
 * {@code group}, {@code timeout}, {@code retries}, {@code loadBalance}, {@code cluster}, {@code forks},
 * {@code actives}, {@code connections}, {@code lazy}, {@code check}, {@code waitForReady}, {@code mock},
 * {@code stub}. Set in code only: filters,
 * a {@link LoadBalancer} of your own, {@code hashArguments} (default {0}: what {@link LoadBalance#CONSISTENTHASH}
 * hashes), {@link OutlierEjection}, {@link RetryBudget} and the allow-list.
 *
 * <p>An {@code id} names the reference for files and {@code -D} ({@code -Dferry.reference.<id>.timeout=2s}).
 */
public final class ReferenceConfig<T> {
    private final Class<T> interfaceType;
    private final String interfaceName;
    private final String id;
    private final Settings settings;
    private final Map<String, MethodConfig> methods;
    private final ClassAllowList allowList;
    private final List<Filter> filters;
    private final LoadBalancer loadBalancer;
    private final Cluster cluster;
    private final int[] hashArguments;
    private final OutlierEjection outlierEjection;
    private final RetryBudget retryBudget;
    private final InetSocketAddress address;

    private ReferenceConfig(Builder<T> b, Settings settings, Map<String, MethodConfig> methods) {
        this.interfaceType = Validate.notNull("interface", b.interfaceType);
        if (!interfaceType.isInterface()) {
            throw new IllegalArgumentException("interface: " + interfaceType.getName() + " (expected: an interface)");
        }
        this.interfaceName = b.interfaceName != null ? b.interfaceName : interfaceType.getName();
        if (Boolean.TRUE.equals(settings.get(Options.GENERIC)) != isGeneric()) {
            String where = settings.setting(Options.GENERIC).where();
            throw new IllegalArgumentException((where.isEmpty() ? "" : where + ": ") + "generic: "
                    + settings.get(Options.GENERIC) + " for " + interfaceName + " (expected: "
                    + (isGeneric() ? "true, or unset" : "false, or unset; a generic reference is made with "
                    + "ReferenceConfig.generic(interfaceName), or generic=\"true\" in a file") + ")");
        }
        this.id = b.id;
        this.loadBalancer = b.loadBalancer;
        this.cluster = b.cluster;
        this.hashArguments = b.hashArguments.clone();
        this.outlierEjection = b.outlierEjection;
        this.retryBudget = b.retryBudget;
        this.filters = List.copyOf(b.filters);
        this.allowList = b.allowList;
        this.settings = settings;
        this.methods = Map.copyOf(methods);
        for (MethodConfig method : this.methods.values()) {
            if (Arrays.stream(interfaceType.getMethods()).noneMatch(m -> m.getName().equals(method.name()))) {
                throw new IllegalArgumentException(method.where() + "method: " + method.name()
                        + " (expected: a method of " + interfaceType.getName() + ")");
            }
            for (Option<?> option : method.settings().options()) {
                if (option == Options.EXECUTES) {
                    throw new IllegalArgumentException("method " + method.name() + " executes (expected: unset; "
                            + "a provider's option, set on the service)");
                }
            }
        }
        String url = settings.get(Options.URL);
        try {
            this.address = url == null ? null : parseUrl(url);
        } catch (IllegalArgumentException e) {
            String where = settings.setting(Options.URL).where();
            throw where.isEmpty() ? e : new IllegalArgumentException(where + ": " + e.getMessage(), e);
        }
    }

    public static <T> Builder<T> builder(Class<T> interfaceType) {
        return new Builder<T>().interfaceType(interfaceType);
    }

    /**
     * A generic reference to the service {@code interfaceName}, whose interface need not be on this class path: its
     * proxy is a {@link GenericService}, and each call names the method, its parameter types and its arguments, POJOs
     * as maps, as Dubbo's generic reference ({@code generic="true"}) does, with the same bytes on the wire.
     *
     * @param interfaceName the service interface's fully qualified name, e.g. {@code "com.acme.UserService"}
     * @throws IllegalArgumentException a name that is not a Java class name
     */
    public static Builder<GenericService> generic(String interfaceName) {
        if (interfaceName == null || !interfaceName.matches(
                "\\p{javaJavaIdentifierStart}\\p{javaJavaIdentifierPart}*(\\.\\p{javaJavaIdentifierStart}"
                        + "\\p{javaJavaIdentifierPart}*)*")) {
            throw new IllegalArgumentException("interface: '" + interfaceName
                    + "' (expected: a fully qualified interface name)");
        }
        Builder<GenericService> b = new Builder<GenericService>().interfaceType(GenericService.class);
        b.interfaceName = interfaceName;
        return b.set(Options.GENERIC, true);
    }

    /**
     * A reference as an {@link io.ferry.rpc.RpcReference} on a field or parameter of type {@code interfaceType}
     * describes it: its url, version, group, timeout, connections, check, retries, loadbalance, cluster, lazy,
     * async, filter, actives, mock, stub and sslEnabled, its id, and a {@link GenericService}'s interfaceName, with
     * the checks {@link Ferry#inject} makes. What the annotation leaves empty (or -1) stays unset, for the interface's
     * {@link RpcService} and the consumer's defaults. For hosts that inject references themselves, such as Spring's
     * constructor parameters.
     *
     * @param where how messages name the annotated element: {@code com.acme.Shop.greeter}, {@code parameter
     *              greeter of com.acme.Shop}
     * @throws IllegalArgumentException when the type is not an interface or a value is out of its range, naming
     *                                  {@code where}
     */
    public static <T> Builder<T> fromAnnotation(io.ferry.rpc.RpcReference annotation, Class<T> interfaceType,
                                                String where) {
        if (!interfaceType.isInterface()) {
            throw new IllegalArgumentException("@RpcReference on " + where + ": " + interfaceType.getName()
                    + " (expected: an interface)");
        }
        boolean generic = interfaceType == GenericService.class;
        if (generic == annotation.interfaceName().isEmpty()) {
            throw new IllegalArgumentException("@RpcReference on " + where + " (expected: " + (generic
                    ? "interfaceName, the service a GenericService field calls)"
                    : "no interfaceName: it names the service of a GenericService field only)"));
        }
        @SuppressWarnings("unchecked")
        Builder<T> reference = (generic ? (Builder<T>) generic(annotation.interfaceName()) : builder(interfaceType))
                .version(annotation.version()).group(annotation.group());
        if (!annotation.url().isEmpty()) {
            try {
                reference.url(annotation.url());
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("@RpcReference(url) on " + where + ": " + e.getMessage(), e);
            }
        }
        Duration timeout = AnnotationValues.timeout(annotation, where);
        if (timeout != null) {
            reference.timeout(timeout);
        }
        Integer connections = AnnotationValues.connections(annotation, where);
        if (connections != null) {
            reference.connections(connections);
        }
        Settings annotated = AnnotationValues.referenceSettings(annotation, where);
        for (io.ferry.rpc.option.Option<?> option : annotated.options()) {
            put(reference, annotated, option);
        }
        String id = AnnotationValues.referenceId(annotation, where);
        if (id != null) {
            reference.id(id);
        }
        return reference;
    }

    private static <V> void put(Builder<?> reference, Settings settings, io.ferry.rpc.option.Option<V> option) {
        Settings.Setting setting = settings.setting(option);
        @SuppressWarnings("unchecked")
        V value = (V) setting.value();
        reference.set(option, value, setting.where());
    }

    /** This reference with {@code merged} settings in place of its own: the same interface, objects and code. */
    ReferenceConfig<T> withSettings(Settings merged, Map<String, MethodConfig> mergedMethods) {
        Builder<T> b = new Builder<T>().interfaceType(interfaceType);
        b.interfaceName = interfaceName;
        b.id = id;
        b.loadBalancer = loadBalancer;
        b.cluster = cluster;
        b.hashArguments = hashArguments;
        b.outlierEjection = outlierEjection;
        b.retryBudget = retryBudget;
        b.filters.addAll(filters);
        b.allowList = allowList;
        return new ReferenceConfig<>(b, merged, mergedMethods);
    }

    /** Parses {@code dubbo://host:port[/path][?params]}: the address (the token is read where it is sent). */
    static InetSocketAddress parseUrl(String url) {
        return DirectUrl.parse(url).address();
    }

    /** The proxy's interface: the service's, or {@link GenericService} for a generic reference. */
    public Class<T> interfaceType() {
        return interfaceType;
    }

    /** The service's interface name, as the wire and the registry name it; a generic reference's given name. */
    public String interfaceName() {
        return interfaceName;
    }

    /** True for a reference made by {@link #generic(String)}. */
    public boolean isGeneric() {
        return interfaceType == GenericService.class && !interfaceName.equals(GenericService.class.getName());
    }

    /** The name files and {@code -D} use for this reference, or null. */
    public String id() {
        return id;
    }

    /** The options set on this reference (its annotation's included, not the consumer's), with where. */
    public Settings settings() {
        return settings.copy();
    }

    /** The direct provider address, or null to use the registry. */
    public InetSocketAddress address() {
        return address;
    }

    /** "" for none. */
    public String version() {
        return orEmpty(settings.get(Options.VERSION));
    }

    /** "" for none. */
    public String group() {
        return orEmpty(settings.get(Options.GROUP));
    }

    private static String orEmpty(String value) {
        return value == null ? "" : value;
    }

    /** Null keeps the consumer's. */
    public Duration timeout() {
        return settings.get(Options.TIMEOUT);
    }

    /** Null keeps the consumer's. */
    public Integer connections() {
        return settings.get(Options.CONNECTIONS);
    }

    /** Null keeps the consumer's. */
    public Boolean lazy() {
        return settings.get(Options.LAZY);
    }

    /** Null keeps the consumer's. */
    public Boolean waitForReady() {
        return settings.get(Options.WAIT_FOR_READY);
    }

    /** Null keeps the consumer's. */
    public Boolean check() {
        return settings.get(Options.CHECK);
    }

    /** Null keeps the consumer's. */
    public Boolean emptyProtection() {
        return settings.get(Options.EMPTY_PROTECTION);
    }

    /** Null keeps the consumer's. */
    public Duration unlistedGrace() {
        return settings.get(Options.UNLISTED_GRACE);
    }

    public Map<String, MethodConfig> methods() {
        return methods;
    }

    public ClassAllowList allowList() {
        return allowList;
    }

    /** Null keeps the consumer's. */
    public Integer retries() {
        return settings.get(Options.RETRIES);
    }

    public List<Filter> filters() {
        return filters;
    }

    /** The load balancer's name; null keeps the consumer's. */
    public String loadBalance() {
        return settings.get(Options.LOAD_BALANCE);
    }

    /** A balancer of this reference's own, or null. */
    public LoadBalancer loadBalancer() {
        return loadBalancer;
    }

    public int[] hashArguments() {
        return hashArguments.clone();
    }

    /** The cluster's name; null keeps the consumer's. */
    public String cluster() {
        return settings.get(Options.CLUSTER);
    }

    /** A cluster of this reference's own, or null. */
    public Cluster clusterInstance() {
        return cluster;
    }

    /** The named filters this reference runs after its consumer's; null when none set. */
    public String filterNames() {
        return settings.get(Options.FILTER);
    }

    /** Null keeps the consumer's. */
    public Integer forks() {
        return settings.get(Options.FORKS);
    }

    /** Null keeps the consumer's. */
    public Integer actives() {
        return settings.get(Options.ACTIVES);
    }

    /** Dubbo's {@code mock} for every method of this reference; null keeps the consumer's. */
    public String mock() {
        return settings.get(Options.MOCK);
    }

    /** Dubbo's {@code stub}: the class the reference is wrapped in; null keeps the consumer's. */
    public String stub() {
        return settings.get(Options.STUB);
    }

    /** Null keeps the consumer's. */
    public OutlierEjection outlierEjection() {
        return outlierEjection;
    }

    /** Null keeps the consumer's. */
    public RetryBudget retryBudget() {
        return retryBudget;
    }

    /** The interface, the options set (with where), the methods' and every piece that is not an option. */
    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder("ReferenceConfig ").append(interfaceName);
        if (isGeneric()) {
            sb.append(" generic");
        }
        if (id != null) {
            sb.append(" id=").append(id);
        }
        sb.append(' ').append(settings);
        if (!methods.isEmpty()) {
            sb.append(" methods=").append(methods.values());
        }
        if (address != null) {
            sb.append(" address=").append(address.getHostString()).append(':').append(address.getPort());
        }
        if (!filters.isEmpty()) {
            sb.append(" filters=").append(ProtocolConfig.names(filters));
        }
        if (loadBalancer != null) {
            sb.append(" loadBalancer=").append(loadBalancer.getClass().getSimpleName());
        }
        if (hashArguments != null) {
            sb.append(" hashArguments=").append(java.util.Arrays.toString(hashArguments));
        }
        if (outlierEjection != null) {
            sb.append(" outlierEjection=").append(outlierEjection);
        }
        if (retryBudget != null) {
            sb.append(" retryBudget=").append(retryBudget);
        }
        return sb.append(" allowList=").append(allowList).toString();
    }

    public static final class Builder<T> {
        private Class<T> interfaceType;
        private String interfaceName;
        private String id;
        private final Settings settings = new Settings();
        private final Map<String, MethodConfig> methods = new LinkedHashMap<>();
        private ClassAllowList allowList = ClassAllowList.none();
        private final List<Filter> filters = new ArrayList<>();
        private LoadBalancer loadBalancer;
        private Cluster cluster;
        private int[] hashArguments = {0};
        private OutlierEjection outlierEjection;
        private RetryBudget retryBudget;

        /**
         * Sets any option of the reference scope; the typed setters below are shorthands for it.
         *
         * @throws IllegalArgumentException naming the option when it has no reference scope or the value is out of
         *                                  its range
         */
        public <V> Builder<T> set(Option<V> option, V value) {
            return set(option, value, "");
        }

        /** As {@link #set(Option, Object)}, remembering where the value came from (a file and line). */
        public <V> Builder<T> set(Option<V> option, V value, String where) {
            settings.checked(Scope.REFERENCE, option, value, where);
            return this;
        }

        /** The name files and {@code -D} properties use for this reference: letters, digits, '-' and '_'. */
        public Builder<T> id(String id) {
            if (id == null || !id.matches("[A-Za-z0-9_-]+")) {
                throw new IllegalArgumentException("id: '" + id + "' (expected: letters, digits, '-' or '_')");
            }
            this.id = id;
            return this;
        }

        public Builder<T> loadBalance(LoadBalance loadBalance) {
            return loadBalance(Validate.notNull("loadBalance", loadBalance).dubboName());
        }

        /** A load balancer by name: Ferry's own, or one a jar registers as a {@code LoadBalancerProvider}. */
        public Builder<T> loadBalance(String name) {
            return set(Options.LOAD_BALANCE, name);
        }

        /** A balancer of your own; it replaces {@code loadBalance}. */
        public Builder<T> loadBalancer(LoadBalancer loadBalancer) {
            this.loadBalancer = Validate.notNull("loadBalancer", loadBalancer);
            return this;
        }

        /** The arguments (by index) {@link LoadBalance#CONSISTENTHASH} hashes; default the first. */
        public Builder<T> hashArguments(int... indexes) {
            if (indexes.length == 0) {
                throw new IllegalArgumentException("hashArguments: none (expected: at least one index)");
            }
            for (int index : indexes) {
                Validate.between("hashArguments", index, 0, 255);
            }
            this.hashArguments = indexes.clone();
            return this;
        }

        public Builder<T> cluster(ClusterMode cluster) {
            return cluster(Validate.notNull("cluster", cluster).dubboName());
        }

        /** A cluster by name: Ferry's own, or one a jar registers as a {@code ClusterProvider}. */
        public Builder<T> cluster(String name) {
            return set(Options.CLUSTER, name);
        }

        /** A cluster of your own; it replaces {@code cluster}. */
        public Builder<T> cluster(Cluster cluster) {
            this.cluster = Validate.notNull("cluster", cluster);
            return this;
        }

        /**
         * Filters by name, in order, after the consumer's named filters, as Dubbo's {@code filter}: each a
         * {@code FilterProvider} on the class path; {@code -name} leaves out one that runs by default,
         * {@code -default} all of them. Called again, it adds to the list.
         */
        public Builder<T> filter(String names) {
            String before = settings.get(Options.FILTER);
            return set(Options.FILTER, before == null ? names : before + "," + names);
        }

        public Builder<T> forks(int forks) {
            return set(Options.FORKS, forks);
        }

        /** Most calls in flight per method of this reference; 0 for no limit. */
        public Builder<T> actives(int actives) {
            return set(Options.ACTIVES, actives);
        }

        public Builder<T> outlierEjection(OutlierEjection outlierEjection) {
            this.outlierEjection = Validate.notNull("outlierEjection", outlierEjection);
            return this;
        }

        public Builder<T> retryBudget(RetryBudget retryBudget) {
            this.retryBudget = Validate.notNull("retryBudget", retryBudget);
            return this;
        }

        /** Other providers a call that provably did not run may move to; 0 for none. */
        public Builder<T> retries(int retries) {
            return set(Options.RETRIES, retries);
        }

        /**
         * Dubbo's {@code mock}: what answers a call that failed with an {@code RpcException} (no provider, timeout,
         * connection lost, refused, ...), never one that failed with the service's own exception: {@code return
         * null}, {@code return empty}, {@code return <value>}, {@code throw}, {@code throw com.acme.SomeException},
         * {@code true} (the interface's {@code XxxMock} class) or a class name; {@code force:} in front answers
         * every call without calling a provider. Checked when the reference is created.
         */
        public Builder<T> mock(String mock) {
            return set(Options.MOCK, mock);
        }

        /**
         * Dubbo's {@code stub}: {@code true} (the interface's {@code XxxStub} class) or a class name, implementing
         * the interface, with a public constructor taking it: the reference handed out is that class, made around
         * the proxy. Checked when the reference is created.
         */
        public Builder<T> stub(String stub) {
            return set(Options.STUB, stub);
        }

        /** Adds a filter around this reference's calls, after the consumer's filters. */
        public Builder<T> filter(Filter filter) {
            filters.add(Validate.notNull("filter", filter));
            return this;
        }

        public Builder<T> interfaceType(Class<T> interfaceType) {
            this.interfaceType = interfaceType;
            this.interfaceName = null; // a generic reference's name is given after its type
            return this;
        }

        /**
         * A direct provider address: {@code dubbo://host:port}, with {@code ?token=...} when the provider asks for a
         * token (sent with every call, as a Dubbo consumer sends a direct url's); null or empty: the registry.
         */
        public Builder<T> url(String url) {
            if (url == null || url.isEmpty()) {
                return this;
            }
            parseUrl(url);
            return set(Options.URL, url);
        }

        /** Empty or null: none (the interface's {@code @RpcService} version, if any). */
        public Builder<T> version(String version) {
            return version == null || version.isEmpty() ? this : set(Options.VERSION, version);
        }

        /** Empty or null: none (the interface's {@code @RpcService} group, if any). */
        public Builder<T> group(String group) {
            return group == null || group.isEmpty() ? this : set(Options.GROUP, group);
        }

        public Builder<T> timeout(Duration timeout) {
            return set(Options.TIMEOUT, timeout);
        }

        /** N connections of this reference's own (Dubbo's meaning); 0 shares the process's connection. */
        public Builder<T> connections(int connections) {
            return set(Options.CONNECTIONS, connections);
        }

        public Builder<T> lazy(boolean lazy) {
            return set(Options.LAZY, lazy);
        }

        /**
         * TLS to every provider (Dubbo's {@code ssl-enabled}), with the {@link SslConfig}'s client files; a provider
         * registered with {@code ssl-enabled=true} is reached with TLS in any case. Never falls back to plain text.
         */
        public Builder<T> sslEnabled(boolean enabled) {
            return set(Options.SSL_ENABLED, enabled);
        }

        /**
         * True: a call to a provider that cannot be connected now waits for a connection within its deadline;
         * false (the consumer's default): it fails at once, not executed, naming the address and the error.
         */
        public Builder<T> waitForReady(boolean wait) {
            return set(Options.WAIT_FOR_READY, wait);
        }

        /**
         * True: {@code reference()} returns once a provider has a ready connection, or fails after the consumer's
         * {@code connectTimeout} with the providers tried and why; false: it returns at once.
         */
        public Builder<T> check(boolean check) {
            return set(Options.CHECK, check);
        }

        /**
         * True (the consumer's default): when the registry suddenly lists no provider, this reference keeps calling
         * those whose connections are live, each until its connection fails or it says it is shutting down, or until
         * the registry lists a provider again; false: an empty list is taken as it is.
         */
        public Builder<T> emptyProtection(boolean protect) {
            return set(Options.EMPTY_PROTECTION, protect);
        }

        /**
         * The consumer's by default (60 s): how long a provider the registry stops listing while others stay listed
         * keeps this reference's calls while its connection lives; zero takes such a list as it is.
         */
        public Builder<T> unlistedGrace(Duration grace) {
            return set(Options.UNLISTED_GRACE, grace);
        }

        /**
         * True: calls of methods that do not return a CompletableFuture return at once (null, 0 or false), and
         * {@code RpcContext.current().future()} is their outcome; Dubbo's {@code async}. Default false.
         */
        public Builder<T> async(boolean async) {
            return set(Options.ASYNC, async);
        }

        public Builder<T> method(MethodConfig method) {
            methods.put(method.name(), method);
            return this;
        }

        /** Classes this reference trusts in answers beyond those reachable from the interface's signatures. */
        public Builder<T> allowList(ClassAllowList allowList) {
            this.allowList = Validate.notNull("allowList", allowList);
            return this;
        }

        public ReferenceConfig<T> build() {
            Validate.notNull("interface", interfaceType);
            Settings all = settings.copy();
            all.fillFrom(AnnotationValues.serviceSettings(interfaceType)); // code wins over the annotation
            return new ReferenceConfig<>(this, all, methods);
        }
    }
}
