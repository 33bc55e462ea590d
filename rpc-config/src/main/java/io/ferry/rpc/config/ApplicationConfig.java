package io.ferry.rpc.config;

import io.ferry.rpc.config.option.Options;

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
        return new ApplicationConfig(Options.APPLICATION_NAME.defaultValue());
    }

    public static ApplicationConfig of(String name) {
        return new ApplicationConfig(name);
    }
}
