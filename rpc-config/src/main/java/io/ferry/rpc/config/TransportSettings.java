package io.ferry.rpc.config;

import io.ferry.rpc.config.option.Settings;
import io.ferry.rpc.option.Option;
import io.ferry.rpc.option.OptionValues;
import io.ferry.rpc.remoting.ClientOptions;
import io.ferry.rpc.remoting.PoolOptions;
import io.ferry.rpc.remoting.ServerOptions;
import io.ferry.rpc.remoting.SocketOptions;
import io.ferry.rpc.remoting.TransportOptions;

import java.util.Set;
import java.util.function.Supplier;

/**
 * Where settings become the remoting layer's objects. The transport's options are declared once, in
 * {@link TransportOptions}, and its builders take them as they are: every transport option a scope's settings hold
 * goes over unchanged; the rest keep their declared defaults.
 */
final class TransportSettings {
    private TransportSettings() {
    }

    /** The client options {@code s} describes, on top of {@code base}. */
    static ClientOptions client(Settings s, ClientOptions base) {
        ClientOptions.Builder b = base.toBuilder();
        copy(s, TransportOptions.CLIENT, b::option);
        return built(b::build, s);
    }

    /** The server options {@code s} describes, on top of the defaults. */
    static ServerOptions server(Settings s) {
        ServerOptions.Builder b = ServerOptions.builder();
        copy(s, TransportOptions.SERVER, b::option);
        return built(b::build, s);
    }

    /** Puts a socket object's values into settings, as if each had been set on its own. */
    static void socketInto(Settings s, SocketOptions socket, String where) {
        into(s, socket.values(), TransportOptions.SOCKET, where);
    }

    /** A service's own pool when {@code s} sets any pool option, else null (the protocol's pool). */
    static PoolOptions pool(Settings s) {
        if (s.options().stream().noneMatch(TransportOptions.POOL::contains)) {
            return null;
        }
        OptionValues[] values = {OptionValues.none()};
        copy(s, TransportOptions.POOL, new Setter() {
            @Override
            public <T> void set(Option<T> option, T value) {
                values[0] = values[0].with(option, value);
            }
        });
        return built(() -> PoolOptions.of(values[0]), s);
    }

    /** Puts a pool object's values into settings. */
    static void poolInto(Settings s, PoolOptions pool, String where) {
        into(s, pool.values(), TransportOptions.POOL, where);
    }

    /** Takes an option and its value, of the same type. */
    private interface Setter {
        <T> void set(Option<T> option, T value);
    }

    /** Hands {@code target} every option of {@code carried} that {@code s} sets, naming where a refused one was. */
    private static void copy(Settings s, Set<Option<?>> carried, Setter target) {
        for (Option<?> option : s.options()) {
            if (carried.contains(option)) {
                Settings.Setting setting = s.setting(option);
                try {
                    set(target, option, setting.value());
                } catch (IllegalArgumentException e) {
                    throw new IllegalArgumentException(prefix(setting.where()) + e.getMessage(), e);
                }
            }
        }
    }

    /** Settings hold each value checked against its option, so the cast holds. */
    @SuppressWarnings("unchecked")
    private static <T> void set(Setter target, Option<T> option, Object value) {
        target.set(option, (T) value);
    }

    /** Every option of {@code carried} at its value in {@code values} (set there, or its default). */
    @SuppressWarnings({"unchecked", "rawtypes"})
    private static void into(Settings s, OptionValues values, Set<Option<?>> carried, String where) {
        for (Option option : carried) {
            Object value = values.get(option);
            if (value != null) {
                s.put(option, value, where);
            }
        }
    }

    /** Builds, naming where the settings came from when values that are fine alone clash together. */
    private static <T> T built(Supplier<T> build, Settings s) {
        try {
            return build.get();
        } catch (IllegalArgumentException e) {
            for (Option<?> option : s.options()) { // values that clash together: name the first place given
                Settings.Setting setting = s.setting(option);
                if (!setting.where().isEmpty()) {
                    throw new IllegalArgumentException(setting.where() + ": " + e.getMessage(), e);
                }
            }
            throw e;
        }
    }

    private static String prefix(String where) {
        return where.isEmpty() ? "" : where + ": ";
    }
}
