package io.ferry.rpc.config.internal;

import io.ferry.rpc.Filter;
import io.ferry.rpc.cluster.Cluster;
import io.ferry.rpc.cluster.LoadBalancer;
import io.ferry.rpc.config.extension.ClusterProvider;
import io.ferry.rpc.config.extension.Extension;
import io.ferry.rpc.config.extension.Extensions;
import io.ferry.rpc.config.extension.FilterProvider;
import io.ferry.rpc.config.extension.LoadBalancerProvider;
import io.ferry.rpc.config.extension.ReferenceContext;
import io.ferry.rpc.config.extension.ServiceContext;
import io.ferry.rpc.option.Option;
import io.ferry.rpc.config.option.Options;
import io.ferry.rpc.config.option.Settings;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Locale;
import java.util.Set;
import java.util.function.Function;

/**
 * Names in options to the extensions they name: {@code loadbalance}, {@code cluster} and {@code filter} lists. An
 * unknown name is refused naming the option, where it was set (file and line, {@code -D} property, annotation) and
 * the names there are.
 */
public final class NamedExtensions {
    /** The word in a filter list that stands for the filters active by default. */
    static final String DEFAULT = "default";

    private NamedExtensions() {
    }

    /** Refuses, at start, a name in {@code settings} (a consumer's or provider's defaults) that nothing registers. */
    public static void check(Settings settings) {
        require(LoadBalancerProvider.class, settings.setting(Options.LOAD_BALANCE), Options.LOAD_BALANCE);
        require(ClusterProvider.class, settings.setting(Options.CLUSTER), Options.CLUSTER);
        Settings.Setting filters = settings.setting(Options.FILTER);
        if (filters != null) {
            for (String token : tokens((String) filters.value())) {
                String name = token.startsWith("-") ? token.substring(1) : token;
                if (!name.equalsIgnoreCase(DEFAULT)) {
                    refuseDubbosFilter(token, name, filters.where());
                    require(FilterProvider.class, new Settings.Setting(name, filters.where()), Options.FILTER);
                }
            }
        }
    }

    /**
     * Dubbo's built-in filters, which Dubbo files name to remove them ({@code filter="-exception"}): each with what
     * Ferry does in its place.
     */
    private static final Map<String, String> DUBBO_FILTERS = Map.ofEntries(
            Map.entry("exception", "Ferry carries a provider's exceptions to the caller itself (see Errors)"),
            Map.entry("monitor", "calls are measured by Ferry's meters (Observability)"),
            Map.entry("generic", "Ferry answers Dubbo's generic calls itself"),
            Map.entry("genericimpl", "a generic reference is generic=\"true\""),
            Map.entry("context", "the RpcContext is Ferry's own"),
            Map.entry("consumercontext", "the RpcContext is Ferry's own"),
            Map.entry("classloader", "Ferry loads with the interface's class loader"),
            Map.entry("timeout", "timeout is the deadline of the whole call, enforced by Ferry itself"),
            Map.entry("trace", "traces come from Micrometer's Observation API"),
            Map.entry("tps", "executes and actives limit calls"),
            Map.entry("activelimit", "actives limits calls in flight"),
            Map.entry("executelimit", "executes limits calls running"),
            Map.entry("future", "a CompletableFuture is Ferry's own"),
            Map.entry("compatible", "no compatibility filter is needed"),
            Map.entry("deprecated", "no deprecation marks"),
            Map.entry("cache", "no result cache"),
            Map.entry("validation", "no JSR-303 validation"));

    private static void refuseDubbosFilter(String token, String name, String where) {
        String instead = DUBBO_FILTERS.get(name.toLowerCase(java.util.Locale.ROOT));
        if (instead != null && Extensions.find(FilterProvider.class, name) == null) {
            throw new IllegalArgumentException(prefix(where) + "filter: '" + token + "': Dubbo's built-in filter "
                    + name + ", not Ferry's (" + instead + "; leave it out): Ferry's filters are "
                    + Extensions.names(FilterProvider.class) + ", and -name leaves out one that is active by default");
        }
    }

    /** The balancer the reference's {@code loadbalance} names. */
    static LoadBalancer balancer(ReferenceContext reference) {
        Settings.Setting name = reference.settings().setting(Options.LOAD_BALANCE, null);
        return require(LoadBalancerProvider.class, name, Options.LOAD_BALANCE).create(reference);
    }

    /** The balancer called {@code name} (a provider's URL named it), made for the reference. */
    static LoadBalancer balancer(ReferenceContext reference, String name) {
        return Extensions.require(LoadBalancerProvider.class, name, Options.LOAD_BALANCE.fileName())
                .create(reference);
    }

    /** The cluster the reference's {@code cluster} names. */
    static Cluster cluster(ReferenceContext reference) {
        Settings.Setting name = reference.settings().setting(Options.CLUSTER, null);
        return require(ClusterProvider.class, name, Options.CLUSTER).create(reference);
    }

    /** The consumer's named filters, then the reference's, with the default ones where the lists put them. */
    static List<Filter> filters(ReferenceContext reference) {
        return filters(List.of(reference.consumer().settings(), reference.reference().settings()),
                provider -> provider.forReference(reference), "consumers");
    }

    /** The provider defaults' named filters, then the service's, with the default ones where the lists put them. */
    static List<Filter> filters(ServiceContext service, Settings providerDefaults) {
        return filters(List.of(providerDefaults, service.service().settings()),
                provider -> provider.forService(service), "providers");
    }

    /**
     * Dubbo's rule for a filter list: the filters active by default come first, unless {@code default} stands
     * elsewhere in the list; {@code -name} leaves one out wherever it is named, {@code -default} every default one.
     */
    private static List<Filter> filters(List<Settings> lists, Function<FilterProvider, Filter> make, String side) {
        List<String> named = new ArrayList<>();
        Set<String> removed = new LinkedHashSet<>();
        List<String> wheres = new ArrayList<>();
        for (Settings list : lists) {
            Settings.Setting setting = list.setting(Options.FILTER);
            if (setting == null) {
                continue;
            }
            for (String token : tokens((String) setting.value())) {
                if (token.startsWith("-")) {
                    removed.add(token.substring(1).toLowerCase(Locale.ROOT));
                } else {
                    named.add(token.toLowerCase(Locale.ROOT));
                    wheres.add(setting.where());
                }
            }
        }
        if (!named.contains(DEFAULT)) {
            named.add(0, DEFAULT);
            wheres.add(0, "");
        }
        Set<String> placed = new LinkedHashSet<>();
        List<Filter> filters = new ArrayList<>();
        for (int i = 0; i < named.size(); i++) {
            String name = named.get(i);
            if (name.equals(DEFAULT)) {
                if (!removed.contains(DEFAULT)) {
                    for (String active : activeByDefault()) {
                        if (!removed.contains(active) && !named.contains(active) && placed.add(active)) {
                            add(filters, make.apply(Extensions.find(FilterProvider.class, active)));
                        }
                    }
                }
            } else if (!removed.contains(name) && placed.add(name)) {
                FilterProvider provider = require(FilterProvider.class, new Settings.Setting(name, wheres.get(i)),
                        Options.FILTER);
                Filter filter = make.apply(provider);
                if (filter == null && !provider.activeByDefault()) {
                    throw new IllegalArgumentException(prefix(wheres.get(i)) + "filter: '" + name
                            + "' (expected: a filter that runs on " + side + "; " + provider.getClass().getName()
                            + " makes none there)");
                }
                add(filters, filter);
            }
        }
        return filters;
    }

    private static List<String> activeByDefault() {
        List<String> active = new ArrayList<>();
        for (String name : Extensions.names(FilterProvider.class)) {
            if (Extensions.find(FilterProvider.class, name).activeByDefault()) {
                active.add(name.toLowerCase(Locale.ROOT));
            }
        }
        return active;
    }

    /** A default filter with nothing to do here (a limit that is not set) makes no filter. */
    private static void add(List<Filter> filters, Filter filter) {
        if (filter != null) {
            filters.add(filter);
        }
    }

    private static List<String> tokens(String list) {
        List<String> tokens = new ArrayList<>();
        for (String part : list.split(",")) {
            if (!part.isBlank()) {
                tokens.add(part.trim());
            }
        }
        return tokens;
    }

    private static <P extends Extension> P require(Class<P> kind, Settings.Setting setting, Option<?> option) {
        if (setting == null || setting.value() == null) {
            return null;
        }
        try {
            return Extensions.require(kind, (String) setting.value(), option.fileName());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(prefix(setting.where()) + e.getMessage(), e);
        }
    }

    private static String prefix(String where) {
        return where.isEmpty() || where.equals("built-in default") ? "" : where + ": ";
    }
}
