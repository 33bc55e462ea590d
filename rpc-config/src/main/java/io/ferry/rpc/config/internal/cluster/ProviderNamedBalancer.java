package io.ferry.rpc.config.internal.cluster;

import io.ferry.rpc.Invocation;
import io.ferry.rpc.cluster.Endpoint;
import io.ferry.rpc.cluster.LoadBalancer;
import io.ferry.rpc.config.option.Settings;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * The balancer of a reference whose calls may want different ones: for each call, the one named for its method, by
 * the reference's settings (the method's own, else the reference's), else by its providers' registry URLs
 * ({@code loadbalance}, as a Dubbo consumer takes it), else the default. Each balancer is made once, on first use,
 * and kept (round robin keeps its sequence); a name nothing registers is logged once and the reference's used
 * instead. Thread-safe.
 */
public final class ProviderNamedBalancer implements LoadBalancer {
    private static final Logger log = LoggerFactory.getLogger(ProviderNamedBalancer.class);

    private final LoadBalancer fallback;
    private final String fallbackName;
    private final Function<String, LoadBalancer> byName;
    private final Function<java.lang.reflect.Method, Settings.Setting> named;
    private final Map<String, LoadBalancer> made = new ConcurrentHashMap<>();

    /**
     * @param fallback     the reference's balancer, for calls of methods that name no other
     * @param fallbackName its name
     * @param byName       makes the balancer a name stands for, or throws IllegalArgumentException for none
     * @param named        the setting in force for a call's method, the providers' values included
     */
    public ProviderNamedBalancer(LoadBalancer fallback, String fallbackName, Function<String, LoadBalancer> byName,
                                 Function<java.lang.reflect.Method, Settings.Setting> named) {
        this.fallback = fallback;
        this.fallbackName = fallbackName;
        this.byName = byName;
        this.named = named;
    }

    @Override
    public Endpoint select(List<Endpoint> candidates, Invocation invocation) {
        Settings.Setting named = this.named.apply(invocation.method());
        if (named.value().equals(fallbackName)) {
            return fallback.select(candidates, invocation);
        }
        return made.computeIfAbsent((String) named.value(), name -> make(name, named.where()))
                .select(candidates, invocation);
    }

    private LoadBalancer make(String name, String where) {
        try {
            return byName.apply(name);
        } catch (IllegalArgumentException e) {
            log.warn("{}: {}; using {}", where, e.getMessage(), fallbackName);
            return fallback;
        }
    }
}
