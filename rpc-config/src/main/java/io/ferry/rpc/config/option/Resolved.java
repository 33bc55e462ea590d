package io.ferry.rpc.config.option;

import java.lang.reflect.Method;
import java.util.Map;
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

    /**
     * @param methods   settings per method name
     * @param annotated a method's annotation values ({@code @RpcMethod}), below its named settings
     * @param member    the reference's or service's
     * @param defaults  the consumer's or provider's
     */
    public Resolved(Map<String, Settings> methods, Function<Method, Settings> annotated, Settings member,
                    Settings defaults) {
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

    /** Whether any method sets {@code option}: a limit per method needs its filter even if the reference has none. */
    public boolean setForSomeMethod(Option<?> option) {
        return methods.values().stream().anyMatch(s -> s.setting(option) != null);
    }
}
