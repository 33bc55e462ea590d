package io.ferry.rpc.config;

import io.ferry.rpc.config.option.MetricsExport;
import io.ferry.rpc.config.option.Options;
import io.ferry.rpc.config.option.Settings;
import io.ferry.rpc.option.Option;
import io.ferry.rpc.option.Scope;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * This process as a whole, as Dubbo's {@code <application>}: its name, which travels with every call as
 * {@code remote.application} and goes into the registry, and its admin port ({@code qos-enable}, {@code qos-port},
 * {@code qos-accept-foreign-ip}, Dubbo's names), off unless enabled, and its metadata ({@code version}, {@code owner},
 * {@code organization}, {@code architecture}, {@code environment}), registered as Dubbo registers them. The options are the option table's at the
 * application scope; files set them on {@code <ferry:application>} or as {@code ferry.application.*}.
 * <pre>{@code
 * Ferry.builder().application(ApplicationConfig.builder().name("greeter").qosEnable(true).build())
 * }</pre>
 * Immutable.
 */
public final class ApplicationConfig {
    private final Settings settings;

    private ApplicationConfig(Settings settings) {
        this.settings = settings;
        String name = name();
        if (name == null || name.isBlank()) {
            Settings.Setting given = settings.setting(Options.APPLICATION_NAME);
            String where = given == null || given.where().isEmpty() ? "" : given.where() + ": ";
            throw new IllegalArgumentException(where + "application.name: '" + name + "' (expected: a non-blank name)");
        }
        String environment = settings.get(Options.ENVIRONMENT);
        if (environment != null && !ENVIRONMENTS.contains(environment)) {
            Settings.Setting given = settings.setting(Options.ENVIRONMENT);
            String where = given.where().isEmpty() ? "" : given.where() + ": ";
            throw new IllegalArgumentException(where + "environment: '" + environment + "' (expected: one of "
                    + String.join(", ", ENVIRONMENTS) + ", Dubbo's)");
        }
    }

    /** The environments Dubbo knows, in its order. */
    private static final java.util.List<String> ENVIRONMENTS = java.util.List.of("develop", "test", "product");

    /** The metadata options, each with the key Dubbo registers it under. */
    private static final Map<Option<String>, String> METADATA_KEYS = metadataKeys();

    private static Map<Option<String>, String> metadataKeys() {
        Map<Option<String>, String> keys = new LinkedHashMap<>();
        keys.put(Options.APPLICATION_VERSION, "application.version");
        keys.put(Options.OWNER, "owner");
        keys.put(Options.ORGANIZATION, "organization");
        keys.put(Options.ARCHITECTURE, "architecture");
        keys.put(Options.ENVIRONMENT, "environment");
        return Collections.unmodifiableMap(keys);
    }

    /** The name "ferry-application", the admin port off. */
    public static ApplicationConfig defaults() {
        return builder().build();
    }

    /** An application of this name, with every other option at its default. */
    public static ApplicationConfig of(String name) {
        return builder().name(name).build();
    }

    public static Builder builder() {
        return new Builder();
    }

    /** The application name; default "ferry-application". */
    public String name() {
        return valueOf(Options.APPLICATION_NAME);
    }

    /** Whether this process serves the admin port; default false. */
    public boolean qosEnable() {
        return valueOf(Options.QOS_ENABLE);
    }

    /** The admin port's port; default 22222. */
    public int qosPort() {
        return valueOf(Options.QOS_PORT);
    }

    /** Whether the admin port listens on every address and serves any peer; default false (127.0.0.1 only). */
    public boolean qosAcceptForeignIp() {
        return valueOf(Options.QOS_ACCEPT_FOREIGN_IP);
    }

    /** Where a Ferry configured by file alone puts its meters; default none. */
    public MetricsExport metrics() {
        return valueOf(Options.METRICS);
    }

    /**
     * The metadata set ({@code version}, {@code owner}, {@code organization}, {@code architecture},
     * {@code environment}), by the keys Dubbo writes them under into every provider and consumer URL of the
     * registry ({@code application.version}, {@code owner}, ...); empty when none is set. Nothing else reads them.
     */
    public Map<String, String> metadata() {
        Map<String, String> metadata = new LinkedHashMap<>();
        METADATA_KEYS.forEach((option, key) -> {
            String value = settings.get(option);
            if (value != null && !value.isBlank()) {
                metadata.put(key, value.strip());
            }
        });
        return Collections.unmodifiableMap(metadata);
    }

    private <T> T valueOf(Option<T> option) {
        T set = settings.get(option);
        return set != null ? set : option.defaultValue();
    }

    /** The options set on this config (not the defaults), each with where it was set. */
    public Settings settings() {
        return settings.copy();
    }

    /** This config with {@code merged} in place of its settings. */
    ApplicationConfig withSettings(Settings merged) {
        return new ApplicationConfig(merged.copy());
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ApplicationConfig other && settings.values().equals(other.settings.values());
    }

    @Override
    public int hashCode() {
        return Objects.hash(settings.values());
    }

    /** The options set, with where. */
    @Override
    public String toString() {
        return "ApplicationConfig" + settings;
    }

    public static final class Builder {
        private final Settings settings = new Settings();

        private Builder() {
        }

        /**
         * Sets any option of the application scope; the typed setters below are shorthands for it.
         *
         * @throws IllegalArgumentException naming the option when it has no application scope or the value is out
         *                                  of range
         */
        public <V> Builder set(Option<V> option, V value) {
            return set(option, value, "");
        }

        /** As {@link #set(Option, Object)}, remembering where the value came from (a file and line). */
        public <V> Builder set(Option<V> option, V value, String where) {
            settings.checked(Scope.APPLICATION, option, value, where);
            return this;
        }

        public Builder name(String name) {
            return set(Options.APPLICATION_NAME, name);
        }

        /** Serves the admin port (see the README's Operations); default false. */
        public Builder qosEnable(boolean enable) {
            return set(Options.QOS_ENABLE, enable);
        }

        /** The admin port's port, 0..65535 (0 picks a free one); default 22222. */
        public Builder qosPort(int port) {
            return set(Options.QOS_PORT, port);
        }

        /**
         * True: the admin port listens on every address and serves anyone who reaches it, who can then take this
         * provider offline, so firewall it. Default false: 127.0.0.1, and peers of this machine only.
         */
        public Builder qosAcceptForeignIp(boolean accept) {
            return set(Options.QOS_ACCEPT_FOREIGN_IP, accept);
        }

        /**
         * {@code PROMETHEUS}: a Prometheus registry of Ferry's own, served at the admin port's {@code /metrics}, for
         * applications without code of their own to give Ferry one ({@link Observability}); default none.
         */
        public Builder metrics(MetricsExport metrics) {
            return set(Options.METRICS, metrics);
        }

        /** @throws IllegalArgumentException for a blank name */
        public ApplicationConfig build() {
            return new ApplicationConfig(settings.copy());
        }
    }
}
