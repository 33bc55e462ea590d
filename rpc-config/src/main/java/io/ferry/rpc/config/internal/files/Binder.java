package io.ferry.rpc.config.internal.files;

import io.ferry.rpc.config.ApplicationConfig;
import io.ferry.rpc.config.ConsumerConfig;
import io.ferry.rpc.config.MethodConfig;
import io.ferry.rpc.config.ProtocolConfig;
import io.ferry.rpc.config.ReferenceConfig;
import io.ferry.rpc.config.RegistryConfig;
import io.ferry.rpc.config.ServiceConfig;
import io.ferry.rpc.config.SslConfig;
import io.ferry.rpc.option.Option;
import io.ferry.rpc.option.OptionValues;
import io.ferry.rpc.config.option.Options;
import io.ferry.rpc.config.option.Settings;

/**
 * Turns what a file set into the typed configs, through the builders' one {@code set(option, value, where)}: each
 * builder takes exactly the options of its scope, so a file can set what the option table declares and nothing
 * else, and every value keeps the file and line it came from.
 */
final class Binder {
    private Binder() {
    }

    /** The application the settings describe, or null when they set nothing of it. */
    static ApplicationConfig application(Settings s) {
        if (s.isEmpty()) {
            return null;
        }
        ApplicationConfig.Builder b = ApplicationConfig.builder();
        each(s, (option, value, where) -> b.set(option, value, where));
        return b.build();
    }

    /** The registry the settings name, or null when they name none. */
    static RegistryConfig registry(Settings s) {
        String address = s.get(Options.REGISTRY_ADDRESS);
        if (address == null) {
            if (!s.isEmpty()) {
                throw new IllegalArgumentException(s.setting(s.options().iterator().next()).where()
                        + ": a registry option without ferry.registry.address");
            }
            return null;
        }
        OptionValues settings = OptionValues.none();
        for (Option<?> option : s.options()) {
            if (option != Options.REGISTRY_ADDRESS) {
                settings = with(settings, option, s.get(option));
            }
        }
        try {
            return RegistryConfig.of(address, settings);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(s.setting(Options.REGISTRY_ADDRESS).where() + ": " + e.getMessage(), e);
        }
    }

    private static <T> OptionValues with(OptionValues values, Option<T> option, Object value) {
        return values.with(option, option.type().cast(value));
    }

    static ConsumerConfig consumer(Settings s) {
        ConsumerConfig.Builder b = ConsumerConfig.builder();
        each(s, (option, value, where) -> b.set(option, value, where));
        return b.build();
    }

    static SslConfig ssl(Settings s) {
        SslConfig.Builder b = SslConfig.builder();
        each(s, (option, value, where) -> b.set(option, value, where));
        return b.build();
    }

    static ProtocolConfig protocol(Settings s) {
        ProtocolConfig.Builder b = ProtocolConfig.builder();
        each(s, (option, value, where) -> b.set(option, value, where));
        return b.build();
    }

    static void reference(FileModel.Member member, ReferenceConfig.Builder<?> b) {
        b.id(member.id);
        each(member.settings, (option, value, where) -> b.set(option, value, where));
        member.methods.forEach((name, settings) -> b.method(method(name, settings)));
    }

    static void service(FileModel.Member member, ServiceConfig.Builder<?> b) {
        each(member.settings, (option, value, where) -> b.set(option, value, where));
        member.methods.forEach((name, settings) -> b.method(method(name, settings)));
    }

    static MethodConfig method(String name, Settings s) {
        MethodConfig.Builder b = MethodConfig.builder(name);
        each(s, (option, value, where) -> b.set(option, value, where));
        return b.build();
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static void each(Settings s, RawSetter setter) {
        for (Option<?> option : s.options()) {
            Settings.Setting setting = s.setting(option);
            setter.set((Option) option, setting.value(), setting.where());
        }
    }

    /** One option's value into a builder; the option and value are of one type by construction. */
    @FunctionalInterface
    private interface RawSetter {
        @SuppressWarnings("rawtypes")
        void set(Option option, Object value, String where);
    }
}
