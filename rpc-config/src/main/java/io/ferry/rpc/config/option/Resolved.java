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
 * is the one place where scopes meet.
 */
public final class Resolved {
    private final Map<String, Settings> methods;
    private final Function<Method, Settings> annotated;
    private final Settings member;
    private final Settings defaults;
    /** REFERENCE or SERVICE: whose settings these are, for toString; null when not said. */
    private final Scope side;

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
        this.side = side;
        this.methods = Map.copyOf(methods);
        this.annotated = annotated;
        this.member = member;
        this.defaults = defaults;
    }

    /** The value for calls of the whole reference or service (no method scope), or null for none. */
    public <T> T get(Option<T> option) {
        return option.type().cast(setting(option, null).value());
    }

    /** The value for calls of {@code method}, or null when no scope sets it and it has no built-in default. */
    public <T> T get(Option<T> option, Method method) {
        return option.type().cast(setting(option, method).value());
    }

    /** The winning value with where it was set ("built-in default" when no scope sets it). */
    public Settings.Setting setting(Option<?> option, Method method) {
        if (method != null) {
            Settings named = methods.get(method.getName());
            if (named != null && named.setting(option) != null) {
                return named.setting(option);
            }
            Settings fromAnnotation = annotated.apply(method);
            if (fromAnnotation != null && fromAnnotation.setting(option) != null) {
                return fromAnnotation.setting(option);
            }
        }
        if (member.setting(option) != null) {
            return member.setting(option);
        }
        if (defaults.setting(option) != null) {
            return defaults.setting(option);
        }
        return new Settings.Setting(option.defaultValue(), "built-in default");
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
            rows.add(setting == null ? new Row(option.name(), null, defaultShown(option), "default")
                    : new Row(option.name(), null, Secrets.shown(option, setting.value()), Settings.where(setting)));
        }
        new TreeMap<>(methods).forEach((method, settings) -> {
            for (Option<?> option : settings.options()) {
                Settings.Setting setting = settings.setting(option);
                rows.add(new Row(option.name(), method, Secrets.shown(option, setting.value()),
                        Settings.where(setting)));
            }
        });
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
