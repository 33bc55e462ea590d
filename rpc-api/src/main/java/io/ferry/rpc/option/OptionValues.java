package io.ferry.rpc.option;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * Values of some options, each checked by its option when set; an option not set reads as its default. The store
 * behind the transport's option carriers, so that an option's type, default and range are declared in one place.
 * Immutable and thread-safe.
 */
public final class OptionValues {
    private static final OptionValues NONE = new OptionValues(Map.of());

    private final Map<Option<?>, Object> values;

    private OptionValues(Map<Option<?>, Object> values) {
        this.values = values;
    }

    /** No option set. */
    public static OptionValues none() {
        return NONE;
    }

    /** The value set, else the option's default (which may be null: computed by whoever reads it). */
    public <T> T get(Option<T> option) {
        Object value = values.get(option);
        return value != null ? option.type().cast(value) : option.defaultValue();
    }

    /** The value set, else the option's default, else {@code computed}. */
    public <T> T get(Option<T> option, T computed) {
        T value = get(option);
        return value != null ? value : computed;
    }

    public boolean isSet(Option<?> option) {
        return values.containsKey(option);
    }

    /** The options set, in the order they were first set. */
    public Set<Option<?>> options() {
        return Collections.unmodifiableSet(values.keySet());
    }

    /**
     * These values with {@code option} set to {@code value}, checked by the option.
     *
     * @throws IllegalArgumentException naming the option, the value and its range
     */
    public <T> OptionValues with(Option<T> option, T value) {
        Map<Option<?>, Object> copy = new LinkedHashMap<>(values);
        copy.put(option, option.check(value, ""));
        return new OptionValues(copy);
    }

    /** These values without {@code option}: it reads as its default again. */
    public OptionValues without(Option<?> option) {
        if (!values.containsKey(option)) {
            return this;
        }
        Map<Option<?>, Object> copy = new LinkedHashMap<>(values);
        copy.remove(option);
        return new OptionValues(copy);
    }

    /** These values with every value {@code other} sets. */
    public OptionValues with(OptionValues other) {
        Map<Option<?>, Object> copy = new LinkedHashMap<>(values);
        copy.putAll(other.values);
        return new OptionValues(copy);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof OptionValues other && values.equals(other.values);
    }

    @Override
    public int hashCode() {
        return values.hashCode();
    }

    /** The values set, as {@code name=value, ...}; a secret's as {@link Option#MASK}. */
    @Override
    public String toString() {
        StringBuilder text = new StringBuilder("{");
        values.forEach((option, value) -> text.append(text.length() == 1 ? "" : ", ").append(option.name())
                .append('=').append(option.show(value)));
        return text.append('}').toString();
    }
}
