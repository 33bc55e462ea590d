package io.ferry.rpc.config.option;

import io.ferry.rpc.option.Scope;
import io.ferry.rpc.option.Option;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * The settings in force for the calls of one reference or one service. For each option the narrowest scope that
 * sets it wins: the method's (by name, then its annotation), then the reference's or service's, then the consumer's
 * or provider's defaults, then the option's built-in default. Each scope's settings come already merged across
 * sources ({@code -D} over code, annotations and XML, over a {@code ferry.properties} on the class path), so this
 * is the one place where scopes meet. A reference's settings may have one more source: what its providers' registry
 * URLs give (Dubbo's provider-side settings, see {@link #withProviders(ProviderValues)}), placed as Dubbo places
 * them: the method level first, then the service level, then the defaults, and at one level the consumer's before
 * the providers'. So a provider's value for a method beats the reference's value for the whole.
 */
public final class Resolved {
    /**
     * What a reference's providers give its calls through their registry URLs, now: a method's value (their
     * {@code <method>.<name>}, else their service's), or null when they give none. Thread-safe; the answer may
     * change as providers come and go.
     */
    public interface ProviderValues {
        /** The value for {@code option} in calls of {@code method} (null: of the whole reference), or null. */
        Settings.Setting setting(Option<?> option, String method);

        /** The value the providers give for {@code method} itself ({@code <method>.<name>}), or null. */
        default Settings.Setting methodSetting(Option<?> option, String method) {
            return null;
        }

        /** The values the providers give for single methods, by method name: what {@link #rows()} shows. */
        default Map<String, Map<Option<?>, Settings.Setting>> byMethod() {
            return Map.of();
        }
    }

    private final Map<String, Settings> methods;
    private final Function<Method, Settings> annotated;
    private final Settings member;
    private final Settings defaults;
    /** REFERENCE or SERVICE: whose settings these are, for toString; null when not said. */
    private final Scope side;
    /** What the providers' registry URLs give, below every scope here; null for none. */
    private final ProviderValues providers;

    /**
     * @param methods   settings per method name
     * @param annotated a method's annotation values ({@code @RpcMethod}), below its named settings
     * @param member    the reference's or service's
     * @param defaults  the consumer's or provider's
     */
    public Resolved(Map<String, Settings> methods, Function<Method, Settings> annotated, Settings member,
                    Settings defaults) {
        this(null, methods, annotated, member, defaults);
    }

    /** As {@link #Resolved(Map, Function, Settings, Settings)}, saying whose: a REFERENCE's or a SERVICE's. */
    public Resolved(Scope side, Map<String, Settings> methods, Function<Method, Settings> annotated, Settings member,
                    Settings defaults) {
        this(side, methods, annotated, member, defaults, null);
    }

    private Resolved(Scope side, Map<String, Settings> methods, Function<Method, Settings> annotated,
                     Settings member, Settings defaults, ProviderValues providers) {
        this.side = side;
        this.methods = Map.copyOf(methods);
        this.annotated = annotated;
        this.member = member;
        this.defaults = defaults;
        this.providers = providers;
    }

    /**
     * These settings with what the providers' registry URLs give, in Dubbo's precedence: a method's own setting
     * here, else the providers' value for the method, else the setting here for the whole (the reference's, the
     * consumer's defaults), else the providers' value for the service, else the built-in default.
     */
    public Resolved withProviders(ProviderValues providers) {
        return new Resolved(side, methods, annotated, member, defaults, providers);
    }

    /**
     * Whether a scope of this reference or service itself sets {@code option} for calls of {@code method} (null:
     * of the whole): its method's, its annotation's, its own or its consumer's or provider's defaults; false when
     * only the providers or the built-in default give it.
     */
    public boolean isSet(Option<?> option, Method method) {
        return own(option, method) != null;
    }

    /**
     * The winning setting of {@code option} in calls of each method, for the call path: what the scopes here set
     * is read once per method, the providers' values (which come and go) at each call. Thread-safe.
     */
    public Function<Method, Settings.Setting> perCall(Option<?> option) {
        Map<Method, Lookup> prepared = new java.util.concurrent.ConcurrentHashMap<>();
        return method -> prepared.computeIfAbsent(method, m -> lookup(option, m)).now();
    }

    /** The setting of {@code option} for calls of {@code method}, prepared: see {@link Lookup}. */
    public Lookup lookup(Option<?> option, Method method) {
        return new Lookup(option, method == null ? null : method.getName(), ownOfMethod(option, method),
                ownOfWhole(option), providers);
    }

    /**
     * One option's setting for the calls of one method, with what the scopes here set read once: {@link #now()}
     * adds the providers' values as they are at the time.
     */
    public static final class Lookup {
        private final Option<?> option;
        private final String method;
        private final Settings.Setting ofMethod;
        private final Settings.Setting ofWhole;
        private final ProviderValues providers;

        private Lookup(Option<?> option, String method, Settings.Setting ofMethod, Settings.Setting ofWhole,
                       ProviderValues providers) {
            this.option = option;
            this.method = method;
            this.ofMethod = ofMethod;
            this.ofWhole = ofWhole;
            this.providers = providers;
        }

        /** Whether no provider can change it: the method sets it here, or there are no providers' values. */
        public boolean fixed() {
            return ofMethod != null || providers == null;
        }

        /** The winning setting now ("built-in default" when nothing sets it). */
        public Settings.Setting now() {
            if (ofMethod != null) {
                return ofMethod;
            }
            if (providers != null && method != null) {
                Settings.Setting theirs = providers.methodSetting(option, method);
                if (theirs != null) {
                    return theirs;
                }
            }
            if (ofWhole != null) {
                return ofWhole;
            }
            Settings.Setting theirs = providers == null ? null : providers.setting(option, null);
            return theirs != null ? theirs : new Settings.Setting(option.defaultValue(), "built-in default");
        }

        @Override
        public String toString() {
            Settings.Setting now = now();
            return option.name() + (method == null ? "" : " [" + method + "]") + " = "
                    + Secrets.shown(option, now.value()) + " (" + Settings.where(now) + ")"
                    + (fixed() ? "" : ", as the providers say now");
        }
    }

    /** The value for calls of the whole reference or service (no method scope), or null for none. */
    public <T> T get(Option<T> option) {
        return option.type().cast(setting(option, null).value());
    }

    /** The value for calls of {@code method}, or null when no scope sets it and it has no built-in default. */
    public <T> T get(Option<T> option, Method method) {
        return option.type().cast(setting(option, method).value());
    }

    /**
     * The winning value with where it was set ("built-in default" when no scope sets it); on the call path, use
     * {@link #perCall} instead, which reads the scopes here once.
     */
    public Settings.Setting setting(Option<?> option, Method method) {
        return lookup(option, method).now();
    }

    /** What the scopes here set, narrowest first; null when none does. */
    private Settings.Setting own(Option<?> option, Method method) {
        Settings.Setting ofMethod = ownOfMethod(option, method);
        return ofMethod != null ? ofMethod : ownOfWhole(option);
    }

    /** What the method's scopes set (its named settings, then its annotation); null when neither does. */
    private Settings.Setting ownOfMethod(Option<?> option, Method method) {
        if (method == null) {
            return null;
        }
        Settings named = methods.get(method.getName());
        if (named != null && named.setting(option) != null) {
            return named.setting(option);
        }
        Settings fromAnnotation = annotated.apply(method);
        return fromAnnotation != null ? fromAnnotation.setting(option) : null;
    }

    /** What the reference's or service's own scope, else its defaults', set; null when neither does. */
    private Settings.Setting ownOfWhole(Option<?> option) {
        return member.setting(option) != null ? member.setting(option) : defaults.setting(option);
    }

    /**
     * One line of these settings as people see them: the option, the method it is set for (null for the whole
     * reference or service), the value as shown (a credential masked) and where it was set ("default" for a
     * built-in default).
     */
    public record Row(String option, String method, String value, String where) {
    }

    /**
     * Every option of calls (those a method, or this reference or service, may set) with its value and where it was
     * set, then the options set for single methods, by method name: what {@link #toString()} prints and the admin
     * port shows.
     */
    public List<Row> rows() {
        List<Row> rows = new ArrayList<>();
        for (Option<?> option : Options.all()) {
            Set<Scope> scopes = side == null ? EnumSet.of(Scope.METHOD, Scope.REFERENCE, Scope.SERVICE)
                    : EnumSet.of(Scope.METHOD, side);
            if (Collections.disjoint(option.scopes(), scopes)) {
                continue;
            }
            Settings.Setting setting = member.setting(option) != null ? member.setting(option)
                    : defaults.setting(option);
            if (setting == null && providers != null) {
                setting = providers.setting(option, null);
            }
            rows.add(setting == null ? new Row(option.name(), null, defaultShown(option), defaultWhere(option))
                    : new Row(option.name(), null, Secrets.shown(option, setting.value()), Settings.where(setting)));
        }
        new TreeMap<>(methods).forEach((method, settings) -> {
            for (Option<?> option : settings.options()) {
                Settings.Setting setting = settings.setting(option);
                rows.add(new Row(option.name(), method, Secrets.shown(option, setting.value()),
                        Settings.where(setting)));
            }
        });
        if (providers != null) { // a provider's value for one method, where the method sets none here
            new TreeMap<>(providers.byMethod()).forEach((method, given) -> given.forEach((option, setting) -> {
                Settings named = methods.get(method);
                if (named == null || named.setting(option) == null) { // theirs for a method beat ours for the whole
                    rows.add(new Row(option.name(), method, Secrets.shown(option, setting.value()),
                            Settings.where(setting)));
                }
            }));
        }
        return rows;
    }

    /**
     * The settings as a table: see {@link #rows()}.
     * <pre>
     * option        value         set at
     * timeout       500 ms        ferry.properties:7
     * retries       2             default
     * timeout [get] 200 ms        code
     * </pre>
     */
    @Override
    public String toString() {
        List<String[]> rows = new ArrayList<>();
        rows.add(new String[] {"option", "value", "set at"});
        for (Row row : rows()) {
            rows.add(new String[] {row.method() == null ? row.option() : row.option() + " [" + row.method() + "]",
                    row.value(), row.where()});
        }
        int[] widths = new int[3];
        rows.forEach(r -> {
            for (int i = 0; i < 3; i++) {
                widths[i] = Math.max(widths[i], r[i].length());
            }
        });
        StringBuilder table = new StringBuilder();
        for (String[] r : rows) {
            table.append(String.format("%-" + widths[0] + "s  %-" + widths[1] + "s  %s%n", r[0], r[1], r[2]));
        }
        return table.toString();
    }

    /**
     * Options whose value a reference takes from its providers' registry URLs (their service's or method's) where
     * nothing of its own sets it, as a Dubbo consumer does.
     */
    private static final Set<Option<?>> PROVIDERS_MAY_GIVE = Set.of(Options.TIMEOUT, Options.RETRIES,
            Options.LOAD_BALANCE, Options.ACTIVES);

    /**
     * "default"; for a reference not made yet, whose providers are not known, the option's providers may still give
     * the value its calls take: said so, rather than showing a default that may not apply.
     */
    private String defaultWhere(Option<?> option) {
        return side == Scope.REFERENCE && providers == null && PROVIDERS_MAY_GIVE.contains(option)
                ? "default, unless the providers' URLs give one" : "default";
    }

    private static String defaultShown(Option<?> option) {
        String text = option.defaultText();
        return option.unit().isEmpty() || !text.chars().allMatch(Character::isDigit) ? text
                : text + " " + option.unit();
    }

    /** Whether any method sets {@code option}: a limit per method needs its filter even if the reference has none. */
    public boolean setForSomeMethod(Option<?> option) {
        return methods.values().stream().anyMatch(s -> s.setting(option) != null);
    }
}
