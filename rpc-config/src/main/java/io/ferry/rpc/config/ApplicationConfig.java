package io.ferry.rpc.config;

/**
 * The application's identity: its name travels with every call as {@code remote.application}, as Dubbo's does.
 *
 * @param name the application name; default "ferry-application"
 */
public record ApplicationConfig(String name) {
    public ApplicationConfig {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("application.name: '" + name + "' (expected: a non-blank name)");
        }
    }

    public static ApplicationConfig defaults() {
        return new ApplicationConfig("ferry-application");
    }

    public static ApplicationConfig of(String name) {
        return new ApplicationConfig(name);
    }
}
