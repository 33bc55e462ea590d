package io.ferry.rpc.config;

import io.ferry.rpc.RpcExport;
import io.ferry.rpc.RpcService;
import io.ferry.rpc.remoting.ClassAllowList;
import io.ferry.rpc.remoting.Validate;

/**
 * One service to export: an interface, the object that implements it, and the version and group consumers ask
 * for. Unset values come from {@link RpcExport} on the implementation class, then {@link RpcService} on the
 * interface.
 */
public final class ServiceConfig<T> {
    private final Class<T> interfaceType;
    private final T implementation;
    private final String version;
    private final String group;
    private final ClassAllowList allowList;

    private ServiceConfig(Builder<T> b) {
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
