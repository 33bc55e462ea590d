package io.ferry.rpc.config.option;

import io.ferry.rpc.option.Scope;
import io.ferry.rpc.option.Option;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/** Option values set at one scope, each with where it was set (for messages). Not thread-safe while filled. */
public final class Settings {
    /** A value and where it came from ("ferry.properties:7", "-Dferry.consumer.timeout"). */
    public record Setting(Object value, String where) {
    }

    private final Map<Option<?>, Setting> values = new LinkedHashMap<>();

    /** Sets a value, replacing any set before (a later source wins). */
    public <T> Settings put(Option<T> option, T value, String where) {
        values.put(option, new Setting(value, where));
        return this;
    }

    /**
     * Sets a value given for {@code scope} (by a builder, at {@code where}, empty for code), checked against the
     * option's scopes and range.
     */
    public <T> Settings checked(Scope scope, Option<T> option, T value, String where) {
        if (!option.scopes().contains(scope)) {
            throw new IllegalArgumentException((where.isEmpty() ? "" : where + ": ") + option.name()
                    + ": not an option of a " + scope.key() + " (it is one of " + option.scopes() + ")");
        }
        values.put(option, new Setting(option.check(value, where), where));
        return this;
    }

    /** A copy, to change without touching this. */
    public Settings copy() {
        return layered(this);
    }

    /** Sets a value read from text, checked and converted by the option. */
    public Settings parse(Option<?> option, String text, String where) {
        return parse(option, text, where, option.name());
    }

    /** As {@link #parse(Option, String, String)}, naming the option as the source spells it. */
    public Settings parse(Option<?> option, String text, String where, String spelled) {
        values.put(option, new Setting(option.parse(text, where, spelled), where));
        return this;
    }

    /** One scope's settings from several sources, the first source winning for each option. */
    public static Settings layered(Settings... highestFirst) {
        Settings merged = new Settings();
        for (Settings source : highestFirst) {
            if (source != null) {
                merged.fillFrom(source);
            }
        }
        return merged;
    }

    /** Sets what {@code lower} has and this has not: a source of lower precedence fills the gaps. */
    public void fillFrom(Settings lower) {
        lower.values.forEach(values::putIfAbsent);
    }

    /** A copy holding only the options {@code keep} accepts. */
    public Settings only(java.util.function.Predicate<Option<?>> keep) {
        Settings copy = new Settings();
        values.forEach((option, setting) -> {
            if (keep.test(option)) {
                copy.values.put(option, setting);
            }
        });
        return copy;
    }

    public Set<Option<?>> options() {
        return Collections.unmodifiableSet(values.keySet());
    }

    public Setting setting(Option<?> option) {
        return values.get(option);
    }

    /** The value, or null when not set here. */
    public <T> T get(Option<T> option) {
        Setting setting = values.get(option);
        return setting == null ? null : option.type().cast(setting.value());
    }

    /** The values alone, by option name, for comparing and printing. */
    public java.util.Map<String, Object> values() {
        java.util.Map<String, Object> byName = new java.util.TreeMap<>();
        values.forEach((option, setting) -> byName.put(option.name(), setting.value()));
        return byName;
    }

    public boolean isEmpty() {
        return values.isEmpty();
    }

    /**
     * Each value with where it was set: {@code {timeout=500 ms (ferry.properties:7), retries=0 (code)}}; a secret
     * option's value masked.
     */
    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder("{");
        values.forEach((option, setting) -> sb.append(sb.length() > 1 ? ", " : "").append(option.name()).append('=')
                .append(Secrets.shown(option, setting.value())).append(" (").append(where(setting)).append(')'));
        return sb.append('}').toString();
    }

    /** A value as a person reads it: a Duration in milliseconds rather than ISO-8601, a secret as ****. */
    static String show(Option<?> option, Object value) {
        return value instanceof java.time.Duration d ? d.toMillis() + " ms" : option.show(value);
    }

    /** Where a setting came from; "code" for a builder, which gives no place. */
    static String where(Setting setting) {
        return setting.where() == null || setting.where().isEmpty() ? "code" : setting.where();
    }
}
