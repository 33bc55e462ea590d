package io.ferry.rpc.config.option;

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

    /** Sets a value read from text, checked and converted by the option. */
    public Settings parse(Option<?> option, String text, String where) {
        values.put(option, new Setting(option.parse(text, where), where));
        return this;
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

    public boolean isEmpty() {
        return values.isEmpty();
    }
}
