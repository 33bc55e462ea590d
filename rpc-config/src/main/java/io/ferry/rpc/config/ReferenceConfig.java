package io.ferry.rpc.config;

import io.ferry.rpc.Filter;
import io.ferry.rpc.RpcService;
import io.ferry.rpc.config.option.AnnotationValues;
import io.ferry.rpc.cluster.LoadBalancer;
import io.ferry.rpc.ClassAllowList;
import io.ferry.rpc.remoting.Validate;

import java.net.InetSocketAddress;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * One remote service to call. Unset values come from {@link RpcService} on the interface, then from the
 * {@link ConsumerConfig}.
 *
 * <table>
 *   <caption>Options</caption>
 *   <tr><th>option</th><th>default</th></tr>
 *   <tr><td>url</td><td>none: discover providers through the bootstrap's registry; {@code dubbo://host:port}
 *       calls that one provider directly</td></tr>
 *   <tr><td>version, group</td><td>from {@code @RpcService}, else none</td></tr>
 *   <tr><td>timeout</td><td>from {@code @RpcService}, else the consumer's (1000 ms)</td></tr>
 *   <tr><td>connections</td><td>the consumer's (0: the shared connection)</td></tr>
 *   <tr><td>lazy</td><td>the consumer's (false)</td></tr>
 *   <tr><td>waitForReady</td><td>the consumer's (false)</td></tr>
 *   <tr><td>check</td><td>the consumer's (true)</td></tr>
 *   <tr><td>retries</td><td>the consumer's (2)</td></tr>
 *   <tr><td>filters</td><td>none beyond the consumer's</td></tr>
 *   <tr><td>loadBalance, cluster, forks, actives, outlierEjection, retryBudget</td><td>the consumer's</td></tr>
 *   <tr><td>loadBalancer</td><td>none: a balancer of your own, instead of {@code loadBalance}</td></tr>
 *   <tr><td>hashArguments</td><td>{0}: the arguments {@link LoadBalance#CONSISTENTHASH} hashes</td></tr>
 * </table>
 */
public final class ReferenceConfig<T> {
    private final Class<T> interfaceType;
    private final InetSocketAddress address;
    private final String version;
    private final String group;
    private final Duration timeout;
    private final Integer connections;
    private final Boolean lazy;
    private final Boolean waitForReady;
    private final Boolean check;
    private final Map<String, MethodConfig> methods;
    private final ClassAllowList allowList;
    private final Integer retries;
    private final List<Filter> filters;
    private final LoadBalance loadBalance;
    private final LoadBalancer loadBalancer;
    private final int[] hashArguments;
    private final ClusterMode cluster;
    private final Integer forks;
    private final Integer actives;
    private final OutlierEjection outlierEjection;
    private final RetryBudget retryBudget;

    private ReferenceConfig(Builder<T> b) {
        this.loadBalance = b.loadBalance;
        this.loadBalancer = b.loadBalancer;
        this.hashArguments = b.hashArguments.clone();
        this.cluster = b.cluster;
        this.forks = b.forks;
        this.actives = b.actives;
        this.outlierEjection = b.outlierEjection;
        this.retryBudget = b.retryBudget;
        this.retries = b.retries;
        this.filters = List.copyOf(b.filters);
        this.interfaceType = Validate.notNull("interface", b.interfaceType);
        if (!interfaceType.isInterface()) {
            throw new IllegalArgumentException("interface: " + interfaceType.getName() + " (expected: an interface)");
        }
        this.address = b.url == null ? null : parseUrl(b.url);
        RpcService service = interfaceType.getAnnotation(RpcService.class);
        this.version = ServiceConfig.first(b.version, service == null ? null : service.version());
        this.group = ServiceConfig.first(b.group, service == null ? null : service.group());
        this.timeout = b.timeout != null ? b.timeout : AnnotationValues.timeout(interfaceType);
        this.connections = b.connections;
        this.lazy = b.lazy;
        this.waitForReady = b.waitForReady;
        this.check = b.check;
        this.methods = Map.copyOf(b.methods);
        for (String name : methods.keySet()) {
            boolean exists = java.util.Arrays.stream(interfaceType.getMethods()).anyMatch(m -> m.getName().equals(name));
            if (!exists) {
                throw new IllegalArgumentException("method: " + name + " (expected: a method of "
                        + interfaceType.getName() + ")");
            }
        }
        this.allowList = b.allowList;
    }

    public static <T> Builder<T> builder(Class<T> interfaceType) {
        return new Builder<T>().interfaceType(interfaceType);
    }

    /** Parses {@code dubbo://host:port[/path][?params]}; only host and port are used. */
    static InetSocketAddress parseUrl(String url) {
        if (url == null || url.isBlank()) {
            throw new IllegalArgumentException("url: " + url + " (expected: dubbo://host:port)");
        }
        try {
            URI uri = URI.create(url.trim());
            if (!"dubbo".equals(uri.getScheme()) || uri.getHost() == null || uri.getPort() <= 0) {
                throw new IllegalArgumentException("url: " + url + " (expected: dubbo://host:port)");
            }
            return new InetSocketAddress(uri.getHost(), uri.getPort());
        } catch (IllegalArgumentException e) {
            if (e.getMessage() != null && e.getMessage().startsWith("url: ")) {
                throw e;
            }
            throw new IllegalArgumentException("url: " + url + " (expected: dubbo://host:port)", e);
        }
    }

    public Class<T> interfaceType() {
        return interfaceType;
    }

    /** The direct provider address, or null to discover providers through the registry. */
    public InetSocketAddress address() {
        return address;
    }

    public String version() {
        return version;
    }

    public String group() {
        return group;
    }

    /** Null keeps the consumer's. */
    public Duration timeout() {
        return timeout;
    }

    /** Null keeps the consumer's. */
    public Integer connections() {
        return connections;
    }

    /** Null keeps the consumer's. */
    public Boolean lazy() {
        return lazy;
    }

    /** Null keeps the consumer's. */
    public Boolean waitForReady() {
        return waitForReady;
    }

    /** Null keeps the consumer's. */
    public Boolean check() {
        return check;
    }

    public Map<String, MethodConfig> methods() {
        return methods;
    }

    public ClassAllowList allowList() {
        return allowList;
    }

    /** Null keeps the consumer's. */
    public Integer retries() {
        return retries;
    }

    /** This reference's own filters, run after the consumer's. */
    public List<Filter> filters() {
        return filters;
    }

    /** Null keeps the consumer's. */
    public LoadBalance loadBalance() {
        return loadBalance;
    }

    /** A balancer of the user's own, or null. */
    public LoadBalancer loadBalancer() {
        return loadBalancer;
    }

    public int[] hashArguments() {
        return hashArguments.clone();
    }

    /** Null keeps the consumer's. */
    public ClusterMode cluster() {
        return cluster;
    }

    /** Null keeps the consumer's. */
    public Integer forks() {
        return forks;
    }

    /** Null keeps the consumer's. */
    public Integer actives() {
        return actives;
    }

    /** Null keeps the consumer's. */
    public OutlierEjection outlierEjection() {
        return outlierEjection;
    }

    /** Null keeps the consumer's. */
    public RetryBudget retryBudget() {
        return retryBudget;
    }

    public static final class Builder<T> {
        private Class<T> interfaceType;
        private String url;
        private String version;
        private String group;
        private Duration timeout;
        private Integer connections;
        private Boolean lazy;
        private Boolean waitForReady;
        private Boolean check;
        private final Map<String, MethodConfig> methods = new HashMap<>();
        private ClassAllowList allowList = ClassAllowList.none();
        private Integer retries;
        private final List<Filter> filters = new ArrayList<>();
        private LoadBalance loadBalance;
        private LoadBalancer loadBalancer;
        private int[] hashArguments = {0};
        private ClusterMode cluster;
        private Integer forks;
        private Integer actives;
        private OutlierEjection outlierEjection;
        private RetryBudget retryBudget;

        public Builder<T> loadBalance(LoadBalance loadBalance) {
            this.loadBalance = Validate.notNull("loadBalance", loadBalance);
            return this;
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
            this.cluster = Validate.notNull("cluster", cluster);
            return this;
        }

        public Builder<T> forks(int forks) {
            this.forks = Validate.between("forks", forks, 1, 100);
            return this;
        }

        /** Most calls in flight per method of this reference; 0 for no limit. */
        public Builder<T> actives(int actives) {
            this.actives = Validate.between("actives", actives, 0, 1_000_000);
            return this;
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
            this.retries = Validate.between("retries", retries, 0, 100);
            return this;
        }

        /** Adds a filter around this reference's calls, after the consumer's filters. */
        public Builder<T> filter(Filter filter) {
            filters.add(Validate.notNull("filter", filter));
            return this;
        }

        public Builder<T> interfaceType(Class<T> interfaceType) {
            this.interfaceType = interfaceType;
            return this;
        }

        /** A direct provider address: {@code dubbo://host:port}. */
        public Builder<T> url(String url) {
            this.url = url;
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

        public Builder<T> timeout(Duration timeout) {
            this.timeout = Validate.positive("timeout", timeout);
            return this;
        }

        /** N connections of this reference's own (Dubbo's meaning); 0 shares the process's connection. */
        public Builder<T> connections(int connections) {
            this.connections = Validate.between("connections", connections, 0, 1024);
            return this;
        }

        public Builder<T> lazy(boolean lazy) {
            this.lazy = lazy;
            return this;
        }

        /**
         * True: a call to a provider that cannot be connected now waits for a connection within its deadline;
         * false (the consumer's default): it fails at once, not executed, naming the address and the error.
         */
        public Builder<T> waitForReady(boolean wait) {
            this.waitForReady = wait;
            return this;
        }

        /**
         * True: {@code reference()} returns once a provider has a ready connection, or fails after the consumer's
         * {@code connectTimeout} with the providers tried and why; false: it returns at once.
         */
        public Builder<T> check(boolean check) {
            this.check = check;
            return this;
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
            return new ReferenceConfig<>(this);
        }
    }
}
