package io.ferry.rpc.config;

import io.ferry.rpc.Filter;
import io.ferry.rpc.RpcExport;
import io.ferry.rpc.RpcMethod;
import io.ferry.rpc.RpcService;
import io.ferry.rpc.config.option.AnnotationValues;
import io.ferry.rpc.ClassAllowList;
import io.ferry.rpc.remoting.PoolOptions;
import io.ferry.rpc.remoting.Validate;

import java.lang.reflect.Method;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * One service to export: an interface, the object that implements it, and the version and group consumers ask
 * for. Unset values come from {@link RpcExport} on the implementation class, then {@link RpcService} on the
 * interface.
 *
 * <p>The provider-side {@code timeout} (per service, or per method with {@link MethodConfig} or
 * {@link RpcMethod#timeoutMillis()}) is the provider's budget for one call: a call that runs longer is reported
 * with a warning naming the method and the time it took. Its answer still goes out; how long to wait is the
 * consumer's decision.
 */
public final class ServiceConfig<T> {
    private final Class<T> interfaceType;
    private final T implementation;
    private final String version;
    private final String group;
    private final ClassAllowList allowList;
    private final Duration timeout;
    private final Map<String, Duration> methodTimeouts;
    private final List<Filter> filters;
    private final int executes;
    private final PoolOptions pool;

    private ServiceConfig(Builder<T> b) {
        this.pool = b.pool;
        this.executes = b.executes;
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
        RpcExport export = implementation.getClass().getAnnotation(RpcExport.class);
        RpcService service = interfaceType.getAnnotation(RpcService.class);
        this.version = first(b.version, export == null ? null : export.version(),
                service == null ? null : service.version());
        this.group = first(b.group, export == null ? null : export.group(), service == null ? null : service.group());
        this.allowList = b.allowList;
        this.timeout = b.timeout != null ? b.timeout : AnnotationValues.timeout(interfaceType);
        Map<String, Duration> timeouts = new HashMap<>();
        for (Method method : interfaceType.getMethods()) {
            Duration annotated = AnnotationValues.timeout(method);
            if (annotated != null) {
                timeouts.put(method.getName(), annotated);
            }
        }
        for (MethodConfig method : b.methods.values()) {
            if (Arrays.stream(interfaceType.getMethods()).noneMatch(m -> m.getName().equals(method.name()))) {
                throw new IllegalArgumentException("method: " + method.name() + " (expected: a method of "
                        + interfaceType.getName() + ")");
            }
            if (method.oneway() != null) {
                throw new IllegalArgumentException("method " + method.name() + " oneway: " + method.oneway()
                        + " (expected: unset; one-way is the consumer's choice)");
            }
            if (method.timeout() != null) {
                timeouts.put(method.name(), method.timeout());
            }
        }
        this.methodTimeouts = Map.copyOf(timeouts);
    }

    public static <T> Builder<T> builder(Class<T> interfaceType, T implementation) {
        return new Builder<T>().interfaceType(interfaceType).implementation(implementation);
    }

    public Class<T> interfaceType() {
        return interfaceType;
    }

    public T implementation() {
        return implementation;
    }

    /** "" for none. */
    public String version() {
        return version;
    }

    /** "" for none. */
    public String group() {
        return group;
    }

    public ClassAllowList allowList() {
        return allowList;
    }

    /** The provider-side timeout of the service, or null for none. */
    public Duration timeout() {
        return timeout;
    }

    /** Provider-side timeouts per method name, from {@link MethodConfig} and {@link RpcMethod}. */
    public Map<String, Duration> methodTimeouts() {
        return methodTimeouts;
    }

    /** A business pool of the service's own, or null to share the protocol's. */
    public PoolOptions pool() {
        return pool;
    }

    /** Most calls of each method running at once; 0 for no limit. */
    public int executes() {
        return executes;
    }

    /** This service's own filters, run after the protocol's, on the business thread. */
    public List<Filter> filters() {
        return filters;
    }

    static String first(String... values) {
        for (String v : values) {
            if (v != null && !v.isEmpty()) {
                return v;
            }
        }
        return "";
    }

    public static final class Builder<T> {
        private Class<T> interfaceType;
        private T implementation;
        private String version;
        private String group;
        private ClassAllowList allowList = ClassAllowList.none();
        private Duration timeout;
        private final Map<String, MethodConfig> methods = new HashMap<>();
        private final List<Filter> filters = new ArrayList<>();
        private int executes;
        private PoolOptions pool;

        /**
         * A business pool of this service's own, so that a slow service cannot take every thread from the others.
         * Default none: the protocol's shared pool.
         */
        public Builder<T> pool(PoolOptions pool) {
            this.pool = Validate.notNull("pool", pool);
            return this;
        }

        /**
         * Most calls of each method running at once (Dubbo's {@code executes}); more are answered
         * {@code LIMIT_EXCEEDED}, not executed, so consumers try another provider. Default 0: no limit.
         */
        public Builder<T> executes(int executes) {
            this.executes = Validate.between("executes", executes, 0, 1_000_000);
            return this;
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

        public Builder<T> version(String version) {
            this.version = version;
            return this;
        }

        public Builder<T> group(String group) {
            this.group = group;
            return this;
        }

        /** The provider's budget for one call; longer calls are reported. Default: none. */
        public Builder<T> timeout(Duration timeout) {
            this.timeout = Validate.positive("timeout", timeout);
            return this;
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
            return new ServiceConfig<>(this);
        }
    }
}
