package io.ferry.rpc.config;

import io.ferry.rpc.Filter;
import io.ferry.rpc.RpcService;
import io.ferry.rpc.remoting.ClassAllowList;
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
 *   <tr><td>retries</td><td>the consumer's (2)</td></tr>
 *   <tr><td>filters</td><td>none beyond the consumer's</td></tr>
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
    private final Map<String, MethodConfig> methods;
    private final ClassAllowList allowList;
    private final Integer retries;
    private final List<Filter> filters;

    private ReferenceConfig(Builder<T> b) {
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
        this.timeout = b.timeout != null ? b.timeout
                : service != null && service.timeoutMillis() > 0 ? Duration.ofMillis(service.timeoutMillis()) : null;
        this.connections = b.connections;
        this.lazy = b.lazy;
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

    public static final class Builder<T> {
        private Class<T> interfaceType;
        private String url;
        private String version;
        private String group;
        private Duration timeout;
        private Integer connections;
        private Boolean lazy;
        private final Map<String, MethodConfig> methods = new HashMap<>();
        private ClassAllowList allowList = ClassAllowList.none();
        private Integer retries;
        private final List<Filter> filters = new ArrayList<>();

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
