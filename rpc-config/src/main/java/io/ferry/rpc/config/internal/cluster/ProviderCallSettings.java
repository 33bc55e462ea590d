package io.ferry.rpc.config.internal.cluster;

import io.ferry.rpc.config.option.Options;
import io.ferry.rpc.config.option.Resolved;
import io.ferry.rpc.config.option.Settings;
import io.ferry.rpc.option.Option;
import io.ferry.rpc.registry.ProviderInstance;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * What a reference's providers give its calls through their registry URLs (Dubbo's provider-side settings):
 * {@code timeout}, {@code retries}, {@code loadbalance} and {@code actives}, each a provider's {@code <method>.<name>}
 * before its plain {@code <name>}. A reference chooses before it picks a provider, so the providers' values are
 * made one: where they differ, a number is the largest of them (no provider's calls are cut shorter, or allowed
 * fewer retries or calls in flight, than it asks for) and a name is the one most of them give (on a tie, the first
 * alphabetically). A provider that gives none has no say; a value that is not one (e.g. {@code timeout=-1}) is
 * ignored, with a warning. {@code cluster} is not taken: as Dubbo's, a consumer keeps its own. Replaced whole at
 * each change of the provider list; thread-safe.
 */
public final class ProviderCallSettings implements Resolved.ProviderValues {
    private static final Logger log = LoggerFactory.getLogger(ProviderCallSettings.class);
    /** The options a provider's URL may give, in the order the admin port lists them. */
    static final List<Option<?>> TAKEN = List.of(Options.TIMEOUT, Options.RETRIES, Options.LOAD_BALANCE,
            Options.ACTIVES);
    /** How many providers' addresses a setting's origin names before it says "..." for the rest. */
    private static final int NAMED = 3;

    /**
     * @param service    the values for the whole service
     * @param methods    for each method some provider names, the values for its calls (its own, else the service's)
     * @param methodOnly for each such method, the values the providers give for it itself
     */
    private record Snapshot(Map<Option<?>, Settings.Setting> service,
                            Map<String, Map<Option<?>, Settings.Setting>> methods,
                            Map<String, Map<Option<?>, Settings.Setting>> methodOnly) {
    }

    private volatile Snapshot snapshot = new Snapshot(Map.of(), Map.of(), Map.of());

    @Override
    public Settings.Setting setting(Option<?> option, String method) {
        Snapshot now = snapshot;
        Map<Option<?>, Settings.Setting> values = method == null ? null : now.methods().get(method);
        return (values != null ? values : now.service()).get(option);
    }

    @Override
    public Settings.Setting methodSetting(Option<?> option, String method) {
        Map<Option<?>, Settings.Setting> values = snapshot.methodOnly().get(method);
        return values == null ? null : values.get(option);
    }

    @Override
    public Map<String, Map<Option<?>, Settings.Setting>> byMethod() {
        Snapshot now = snapshot;
        Map<String, Map<Option<?>, Settings.Setting>> differing = new TreeMap<>();
        now.methods().forEach((method, values) -> values.forEach((option, setting) -> {
            if (!setting.equals(now.service().get(option))) {
                differing.computeIfAbsent(method, m -> new LinkedHashMap<>()).put(option, setting);
            }
        }));
        return differing;
    }

    /** Takes the values of {@code providers}, the reference's list now. */
    void update(List<ProviderInstance> providers) {
        TreeSet<String> methods = new TreeSet<>();
        for (ProviderInstance provider : providers) {
            for (String key : provider.callSettings().keySet()) {
                int dot = key.lastIndexOf('.');
                if (dot > 0) {
                    methods.add(key.substring(0, dot));
                }
            }
        }
        Map<String, Map<Option<?>, Settings.Setting>> byMethod = new HashMap<>();
        Map<String, Map<Option<?>, Settings.Setting>> methodOnly = new HashMap<>();
        for (String method : methods) {
            byMethod.put(method, agreed(providers, method, false));
            methodOnly.put(method, agreed(providers, method, true));
        }
        snapshot = new Snapshot(agreed(providers, null, false), Map.copyOf(byMethod), Map.copyOf(methodOnly));
    }

    /**
     * For calls of {@code method} (null: of the whole), each option's one value, where a provider gives one;
     * {@code methodOnly}: only the values given for the method itself.
     */
    private static Map<Option<?>, Settings.Setting> agreed(List<ProviderInstance> providers, String method,
                                                           boolean methodOnly) {
        Map<Option<?>, Settings.Setting> values = new LinkedHashMap<>();
        for (Option<?> option : TAKEN) {
            List<Object> given = new ArrayList<>();
            List<String> from = new ArrayList<>();
            for (ProviderInstance provider : providers) {
                Object value = value(provider, option, method, methodOnly);
                if (value != null) {
                    given.add(value);
                    from.add(provider.address());
                }
            }
            if (!given.isEmpty()) {
                values.put(option, combined(option, given, from));
            }
        }
        return values;
    }

    /**
     * One provider's value: its method's, else (unless {@code methodOnly}) its service's; null when it gives none
     * (or none that is valid).
     */
    private static Object value(ProviderInstance provider, Option<?> option, String method, boolean methodOnly) {
        String name = option.dubboName();
        String text = method == null ? null : provider.callSettings().get(method + "." + name);
        String key = method + "." + name;
        if (text == null && methodOnly) {
            return null;
        }
        if (text == null) {
            text = provider.callSettings().get(name);
            key = name;
        }
        if (text == null) {
            return null;
        }
        try {
            return option.parse(text, "provider URL of " + provider.address(), key);
        } catch (IllegalArgumentException e) {
            log.warn("{} ignored: {}", key, e.getMessage());
            return null;
        }
    }

    private static Settings.Setting combined(Option<?> option, List<Object> given, List<String> from) {
        boolean agree = given.stream().distinct().count() == 1;
        Object value;
        if (agree) {
            value = given.get(0);
        } else if (option.type() == Duration.class) {
            value = given.stream().map(Duration.class::cast).max(Comparator.naturalOrder()).orElseThrow();
        } else if (option.type() == Integer.class) {
            value = given.stream().map(Integer.class::cast).max(Comparator.naturalOrder()).orElseThrow();
        } else {
            Map<Object, Integer> votes = new TreeMap<>();
            given.forEach(v -> votes.merge(v, 1, Integer::sum));
            value = votes.entrySet().stream().max(Map.Entry.<Object, Integer>comparingByValue()
                    .thenComparing(e -> (String) e.getKey(), Comparator.reverseOrder())).orElseThrow().getKey();
        }
        String who = from.size() <= NAMED ? String.join(", ", from)
                : String.join(", ", from.subList(0, NAMED)) + " and " + (from.size() - NAMED) + " more";
        String rule = agree ? "" : option.type() == String.class ? " (most of them)" : " (the largest)";
        return new Settings.Setting(value, "provider URL" + (from.size() > 1 ? "s" : "") + " of " + who + rule);
    }
}
