package io.ferry.rpc.config;

import io.ferry.rpc.ClassAllowList;
import io.ferry.rpc.Filter;
import io.ferry.rpc.RpcExport;
import io.ferry.rpc.RpcMethod;
import io.ferry.rpc.RpcService;
import io.ferry.rpc.config.internal.AnnotationValues;
import io.ferry.rpc.config.internal.accesslog.AccessLogDestination;
import io.ferry.rpc.option.Option;
import io.ferry.rpc.config.option.Options;
import io.ferry.rpc.option.Scope;
import io.ferry.rpc.config.option.Settings;
import io.ferry.rpc.remoting.PoolOptions;
import io.ferry.rpc.spi.Validate;

import java.lang.reflect.Method;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One service to export: an interface, the object that implements it, and the version and group consumers ask
 * for. Unset values come from {@link RpcExport} on the implementation class, then {@link RpcService} on the
 * interface. The options are the option table's at the service scope ({@link Options}): {@code version},
 * {@code group}, {@code timeout}, {@code executes}, {@code token}, and the pool options ({@code threads},
 * {@code threadPool}, {@code queues}, {@code coreThreads}, {@code alive}: any of them gives the service a pool of its
 * own).
 *
 * <p>The provider-side {@code timeout} (per service, or per method with {@link MethodConfig} or
 * {@link RpcMethod#timeoutMillis()}) is the provider's budget for one call: a call that runs longer is reported
 * with a warning naming the method and the time it took. Its answer still goes out; how long to wait is the
 * consumer's decision.
 */
public final class ServiceConfig<T> {
    private final Class<T> interfaceType;
    private final T implementation;
    private final Settings settings;
    private final Map<String, MethodConfig> methods;
    private final ClassAllowList allowList;
    private final List<Filter> filters;
    private final Map<String, Duration> methodTimeouts;
    private final PoolOptions pool;

    private ServiceConfig(Builder<T> b, Settings settings, Map<String, MethodConfig> methods) {
        this.filters = List.copyOf(b.filters);
        this.interfaceType = Validate.notNull("interface", b.interfaceType);
        this.implementation = Validate.notNull("implementation", b.implementation);
        if (!interfaceType.isInterface()) {
            throw new IllegalArgumentException("interface: " + interfaceType.getName() + " (expected: an interface)");
        }
        if (!interfaceType.isInstance(implementation)) {
            throw new IllegalArgumentException("implementation: " + implementation.getClass().getName()
                    + " (expected: an implementation of " + interfaceType.getName() + ")");
        }
        this.allowList = b.allowList;
        this.settings = settings;
        this.methods = Map.copyOf(methods);
        this.pool = TransportSettings.pool(settings);
        Map<String, Duration> timeouts = new HashMap<>();
        for (Method method : interfaceType.getMethods()) {
            Duration annotated = AnnotationValues.timeout(method);
            if (annotated != null) {
                timeouts.put(method.getName(), annotated);
            }
        }
        for (MethodConfig method : this.methods.values()) {
            if (Arrays.stream(interfaceType.getMethods()).noneMatch(m -> m.getName().equals(method.name()))) {
                throw new IllegalArgumentException(method.where() + "method: " + method.name()
                        + " (expected: a method of " + interfaceType.getName() + ")");
            }
            if (method.oneway() != null) {
                throw new IllegalArgumentException("method " + method.name() + " oneway: " + method.oneway()
                        + " (expected: unset; one-way is the consumer's choice)");
            }
            for (Option<?> option : method.settings().options()) {
                if (!option.scopes().contains(Scope.SERVICE)) {
                    throw new IllegalArgumentException("method " + method.name() + " " + option.name()
                            + " (expected: unset; a consumer's option, set on the reference)");
                }
            }
            if (method.timeout() != null) {
                timeouts.put(method.name(), method.timeout());
            }
        }
        this.methodTimeouts = Map.copyOf(timeouts);
        checkToken(settings.setting(Options.TOKEN));
        checkAccessLog(settings.setting(Options.ACCESS_LOG));
    }

    /** A value that names no file fails with the config, not with the export. */
    static void checkAccessLog(Settings.Setting accessLog) {
        if (accessLog != null) {
            AccessLogDestination.parse((String) accessLog.value(), accessLog.where());
        }
    }

    /**
     * A token goes into the registry URL as a parameter value: characters that end one, or that a URL cannot hold,
     * would corrupt it. The message names the rule, never the token.
     */
    private static void checkToken(Settings.Setting token) {
        if (token != null && !((String) token.value()).matches("[^\\s&=?#]+")) {
            throw new IllegalArgumentException((token.where().isEmpty() ? "" : token.where() + ": ")
                    + "token: (not shown) (expected: no whitespace, '&', '=', '?' or '#': it is written into the "
                    + "registry URL)");
        }
    }

    public static <T> Builder<T> builder(Class<T> interfaceType, T implementation) {
        return new Builder<T>().interfaceType(interfaceType).implementation(implementation);
    }

    /**
     * A service for an implementation of a class annotated {@link RpcExport}: the interface it names, else its only
     * interface, with the annotation's settings (version, group, timeout, retries, ...), as
     * {@link Ferry#export(Object)} exports it. {@code annotatedClass} is the implementation's class or, when {@code implementation} is a proxy of it (a
     * Spring AOP proxy, which carries no annotation of its own), the class it proxies.
     *
     * @throws IllegalArgumentException when the class is not annotated, names no interface among several, or
     *                                  {@code implementation} does not implement the interface
     */
    @SuppressWarnings({"unchecked", "rawtypes"})
    public static Builder<?> fromAnnotation(Class<?> annotatedClass, Object implementation) {
        Class iface = AnnotationValues.exportedInterface(annotatedClass);
        Builder<?> b = builder(iface, implementation);
        b.annotatedClass = annotatedClass;
        return b;
    }

    /** This service with {@code merged} settings in place of its own: the same interface, object and code. */
    ServiceConfig<T> withSettings(Settings merged, Map<String, MethodConfig> mergedMethods) {
        Builder<T> b = builder(interfaceType, implementation).allowList(allowList);
        b.filters.addAll(filters);
        return new ServiceConfig<>(b, merged, mergedMethods);
    }

    public Class<T> interfaceType() {
        return interfaceType;
    }

    public T implementation() {
        return implementation;
    }

    /** The options set on this service (its annotations' included, not the provider's), with where. */
    public Settings settings() {
        return settings.copy();
    }

    public Map<String, MethodConfig> methods() {
        return methods;
    }

    /** "" for none. */
    public String version() {
        String version = settings.get(Options.VERSION);
        return version == null ? "" : version;
    }

    /** "" for none. */
    public String group() {
        String group = settings.get(Options.GROUP);
        return group == null ? "" : group;
    }

    public ClassAllowList allowList() {
        return allowList;
    }

    /** The provider-side timeout of the service, or null for none. */
    public Duration timeout() {
        return settings.get(Options.TIMEOUT);
    }

    /** Provider-side timeouts per method name, from {@link MethodConfig} and {@link RpcMethod}. */
    public Map<String, Duration> methodTimeouts() {
        return methodTimeouts;
    }

    /** A business pool of the service's own, or null to share the protocol's. */
    public PoolOptions pool() {
        return pool;
    }

    /** Most calls of each method running at once; 0 for no limit (a method may set its own). */
    public int executes() {
        Integer executes = settings.get(Options.EXECUTES);
        return executes == null ? 0 : executes;
    }

    /** This service's own filters, run after the protocol's, on the business thread. */
    public List<Filter> filters() {
        return filters;
    }

    /** The named filters this service runs (after its provider defaults' names); null when none set. */
    public String filterNames() {
        return settings.get(Options.FILTER);
    }

    /**
     * The interface, its implementation's class (not the implementation's own toString), the options set (with
     * where), the methods' and every piece that is not an option.
     */
    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder("ServiceConfig ").append(interfaceType.getName()).append(" by ")
                .append(implementation.getClass().getName()).append(' ').append(settings);
        if (!methods.isEmpty()) {
            sb.append(" methods=").append(methods.values());
        }
        if (!filters.isEmpty()) {
            sb.append(" filters=").append(ProtocolConfig.names(filters));
        }
        if (pool != null) {
            sb.append(" pool=").append(pool);
        }
        return sb.append(" allowList=").append(allowList).toString();
    }

    public static final class Builder<T> {
        private Class<T> interfaceType;
        private T implementation;
        private final Settings settings = new Settings();
        private ClassAllowList allowList = ClassAllowList.none();
        private final Map<String, MethodConfig> methods = new LinkedHashMap<>();
        private final List<Filter> filters = new ArrayList<>();
        /** The class whose {@code @RpcExport} applies, when the implementation is a proxy of it; else null. */
        private Class<?> annotatedClass;

        /**
         * Sets any option of the service scope; the typed setters below are shorthands for it.
         *
         * @throws IllegalArgumentException naming the option when it has no service scope or the value is out of
         *                                  its range
         */
        public <V> Builder<T> set(Option<V> option, V value) {
            return set(option, value, "");
        }

        /** As {@link #set(Option, Object)}, remembering where the value came from (a file and line). */
        public <V> Builder<T> set(Option<V> option, V value, String where) {
            settings.checked(Scope.SERVICE, option, value, where);
            return this;
        }

        /**
         * A business pool of this service's own, so that a slow service cannot take every thread from the others.
         * Default none: the protocol's shared pool.
         */
        public Builder<T> pool(PoolOptions pool) {
            TransportSettings.poolInto(settings, Validate.notNull("pool", pool), "");
            return this;
        }

        /**
         * Most calls of each method running at once (Dubbo's {@code executes}); more are answered
         * {@code LIMIT_EXCEEDED}, not executed, so consumers try another provider. Default 0: no limit.
         */
        public Builder<T> executes(int executes) {
            return set(Options.EXECUTES, executes);
        }

        /**
         * This provider's weight among the providers of the service (Dubbo's {@code weight}, default 100), written
         * into its registry URL: consumers' weighted balancers give it calls in proportion.
         */
        public Builder<T> weight(int weight) {
            return set(Options.WEIGHT, weight);
        }

        /**
         * How long after it registers this provider's weight ramps up from 1 (Dubbo's {@code warmup}, default
         * 10 min), written into its registry URL; zero: no ramp.
         */
        public Builder<T> warmup(Duration warmup) {
            return set(Options.WARMUP, warmup);
        }

        /**
         * Consumers' {@code retries} for this service, written into its registry URL; a consumer's own setting
         * wins. A method's {@link MethodConfig} may give its own.
         */
        public Builder<T> retries(int retries) {
            return set(Options.RETRIES, retries);
        }

        /** Consumers' load balancer for this service, by name, written into its registry URL; theirs wins. */
        public Builder<T> loadBalance(String name) {
            return set(Options.LOAD_BALANCE, name);
        }

        /** As {@link #loadBalance(String)}, one of Ferry's. */
        public Builder<T> loadBalance(LoadBalance balancer) {
            return loadBalance(Validate.notNull("loadBalance", balancer).dubboName());
        }

        /**
         * A cluster by name, written into the registry URL as Dubbo writes it; consumers, Dubbo's too, keep their
         * own.
         */
        public Builder<T> cluster(String name) {
            return set(Options.CLUSTER, name);
        }

        public Builder<T> cluster(ClusterMode cluster) {
            return cluster(Validate.notNull("cluster", cluster).dubboName());
        }

        /** Consumers' {@code actives} for this service, written into its registry URL; theirs wins. */
        public Builder<T> actives(int actives) {
            return set(Options.ACTIVES, actives);
        }

        /**
         * Filters by name, in order, as Dubbo's {@code filter}: each a {@code FilterProvider} on the class path;
         * {@code -name} leaves out one that runs by default, {@code -default} all of them. They run before the
         * filter objects. Called again, it adds to the list.
         */
        public Builder<T> filter(String names) {
            String before = settings.get(Options.FILTER);
            return set(Options.FILTER, before == null ? names : before + "," + names);
        }

        /** Adds a provider filter around this service's calls, after the protocol's filters. */
        public Builder<T> filter(Filter filter) {
            filters.add(Validate.notNull("filter", filter));
            return this;
        }

        public Builder<T> interfaceType(Class<T> interfaceType) {
            this.interfaceType = interfaceType;
            return this;
        }

        public Builder<T> implementation(T implementation) {
            this.implementation = implementation;
            return this;
        }

        /** Empty or null: none (the annotations' version, if any). */
        public Builder<T> version(String version) {
            return version == null || version.isEmpty() ? this : set(Options.VERSION, version);
        }

        /** Empty or null: none (the annotations' group, if any). */
        public Builder<T> group(String group) {
            return group == null || group.isEmpty() ? this : set(Options.GROUP, group);
        }

        /**
         * Dubbo's token: {@code "true"} makes a random one for each export, {@code "false"} asks for none (also
         * over the provider's default), any other value is the token itself. It is written into the provider's
         * registry URL; consumers that find the provider there, or name it in a url ({@code ?token=...}), send it
         * with every call, and a call without it, or with another, is refused before anything of the service runs.
         * Null or empty: the provider's default, if any. It travels in clear text unless the connection is
         * encrypted, and whoever can read the registry can read it.
         */
        public Builder<T> token(String token) {
            return token == null || token.isEmpty() ? this : set(Options.TOKEN, token);
        }

        /**
         * Who may call the service's methods, by the identity their client certificate proved on a mutual-TLS
         * connection: {@code cn:NAME}, {@code dns:NAME}, {@code uri:URI} ({@code uri:spiffe://example.org/*}),
         * {@code ip:ADDRESS} or {@code *}, comma-separated; a method's own ({@code MethodConfig}) replaces it for that
         * method. Any other caller is refused FORBIDDEN, not run. Needs ssl-enabled with a server trust collection.
         */
        public Builder<T> callers(String callers) {
            return set(Options.CALLERS, callers);
        }

        /**
         * Dubbo's access log for this service's calls, one line each (time, caller, service, method, status,
         * duration): {@code "true"} writes to the slf4j logger {@code ferry.accesslog}, {@code "false"} writes none
         * (also over the protocol's), any other value is a file the lines are appended to. Default: the protocol's,
         * else none. Lines show no argument values unless {@link #accessLogArguments} asks.
         */
        public Builder<T> accessLog(String accessLog) {
            return set(Options.ACCESS_LOG, accessLog);
        }

        /**
         * Whether this service's access-log lines show the calls' argument values (escaped, cut to 256 characters
         * each); true or false here wins over the protocol's. Default false: values may be personal data.
         */
        public Builder<T> accessLogArguments(boolean shown) {
            return set(Options.ACCESS_LOG_ARGUMENTS, shown);
        }

        /** The provider's budget for one call; longer calls are reported. Default: none. */
        public Builder<T> timeout(Duration timeout) {
            return set(Options.TIMEOUT, timeout);
        }

        public Builder<T> method(MethodConfig method) {
            methods.put(method.name(), method);
            return this;
        }

        /** Classes this service trusts beyond those reachable from its signatures. */
        public Builder<T> allowList(ClassAllowList allowList) {
            this.allowList = Validate.notNull("allowList", allowList);
            return this;
        }

        public ServiceConfig<T> build() {
            Validate.notNull("interface", interfaceType);
            Validate.notNull("implementation", implementation);
            Settings all = settings.copy();
            // code, then @RpcExport, then @RpcService
            all.fillFrom(exportSettings(annotatedClass != null ? annotatedClass : implementation.getClass()));
            all.fillFrom(AnnotationValues.serviceSettings(interfaceType));
            return new ServiceConfig<>(this, all, methods);
        }

        private static Settings exportSettings(Class<?> implementation) {
            return AnnotationValues.exportSettings(implementation);
        }
    }
}
