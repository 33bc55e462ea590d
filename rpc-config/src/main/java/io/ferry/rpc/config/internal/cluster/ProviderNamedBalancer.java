package io.ferry.rpc.config.internal.cluster;

import io.ferry.rpc.Invocation;
import io.ferry.rpc.cluster.Endpoint;
import io.ferry.rpc.cluster.LoadBalancer;
import io.ferry.rpc.config.option.Options;
import io.ferry.rpc.config.option.Resolved;
import io.ferry.rpc.config.option.Settings;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * The balancer of a reference that names none itself: for each call, the one its providers' registry URLs name for
 * the method ({@code loadbalance}, as a Dubbo consumer takes it), else the reference's default. Each balancer is
 * made once, on first use, and kept (round robin keeps its sequence); a name nothing registers is logged once and
 * the default used instead. Thread-safe.
 */
public final class ProviderNamedBalancer implements LoadBalancer {
    private static final Logger log = LoggerFactory.getLogger(ProviderNamedBalancer.class);

    private final LoadBalancer fallback;
    private final String fallbackName;
    private final Function<String, LoadBalancer> byName;
    private final Resolved.ProviderValues providers;
    private final Map<String, LoadBalancer> made = new ConcurrentHashMap<>();

    /**
     * @param fallback     the balancer when the providers name none: the built-in default's
     * @param fallbackName its name
     * @param byName       makes the balancer a name stands for, or throws IllegalArgumentException for none
     */
    public ProviderNamedBalancer(LoadBalancer fallback, String fallbackName, Function<String, LoadBalancer> byName,
                                 Resolved.ProviderValues providers) {
        this.fallback = fallback;
        this.fallbackName = fallbackName;
        this.byName = byName;
        this.providers = providers;
    }

    @Override
    public Endpoint select(List<Endpoint> candidates, Invocation invocation) {
        Settings.Setting named = providers.setting(Options.LOAD_BALANCE, invocation.method().getName());
        if (named == null || named.value().equals(fallbackName)) {
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
