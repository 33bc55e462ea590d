package io.ferry.rpc.config;

import io.ferry.rpc.config.option.Option;
import io.ferry.rpc.config.option.Options;
import io.ferry.rpc.config.option.Settings;
import io.ferry.rpc.remoting.ClientOptions;
import io.ferry.rpc.remoting.Dispatcher;
import io.ferry.rpc.remoting.PoolOptions;
import io.ferry.rpc.remoting.ServerOptions;
import io.ferry.rpc.remoting.SocketOptions;
import io.ferry.rpc.remoting.ThreadPoolKind;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.function.BiConsumer;

/**
 * The one place where options become the remoting layer's objects: settings onto {@link ClientOptions},
 * {@link ServerOptions}, {@link SocketOptions} and {@link PoolOptions}. Only what the settings hold is applied;
 * the rest keeps the remoting layer's defaults (which {@code DefaultsTest} holds equal to the option table's).
 */
final class TransportSettings {
    private TransportSettings() {
    }

    static final Set<Option<?>> SOCKET = Set.of(Options.TCP_NO_DELAY, Options.KEEP_ALIVE, Options.SEND_BUFFER,
            Options.RECEIVE_BUFFER, Options.WRITE_BUFFER_LOW, Options.WRITE_BUFFER_HIGH);
    static final Set<Option<?>> POOL = Set.of(Options.THREAD_POOL, Options.THREADS, Options.QUEUES,
            Options.CORE_THREADS, Options.ALIVE);

    private static final Map<Option<?>, BiConsumer<ClientOptions.Builder, Object>> CLIENT = new LinkedHashMap<>();
    private static final Map<Option<?>, BiConsumer<ServerOptions.Builder, Object>> SERVER = new LinkedHashMap<>();

    static {
        CLIENT.put(Options.CONNECTIONS, (b, v) -> b.connections((Integer) v));
        CLIENT.put(Options.MAX_CONNECTIONS, (b, v) -> b.maxConnections((Integer) v));
        CLIENT.put(Options.POOL_IDLE_TIMEOUT, (b, v) -> b.poolIdleTimeout((Duration) v));
        CLIENT.put(Options.CONGESTION_WAIT, (b, v) -> b.congestionWait((Duration) v));
        CLIENT.put(Options.LAZY, (b, v) -> b.lazy((Boolean) v));
        CLIENT.put(Options.WAIT_FOR_READY, (b, v) -> b.waitForReady((Boolean) v));
        CLIENT.put(Options.CONNECT_TIMEOUT, (b, v) -> b.connectTimeout((Duration) v));
        CLIENT.put(Options.PAYLOAD, (b, v) -> b.payloadBytes((Integer) v));
        CLIENT.put(Options.HEARTBEAT, (b, v) -> b.heartbeat((Duration) v));

        SERVER.put(Options.HOST, (b, v) -> b.host((String) v));
        SERVER.put(Options.PORT, (b, v) -> b.port((Integer) v));
        SERVER.put(Options.IO_THREADS, (b, v) -> b.ioThreads((Integer) v));
        SERVER.put(Options.THREADS, (b, v) -> b.threads((Integer) v));
        SERVER.put(Options.QUEUES, (b, v) -> b.queues((Integer) v));
        SERVER.put(Options.THREAD_POOL, (b, v) -> b.threadPool((ThreadPoolKind) v));
        SERVER.put(Options.CORE_THREADS, (b, v) -> b.coreThreads((Integer) v));
        SERVER.put(Options.ALIVE, (b, v) -> b.alive((Duration) v));
        SERVER.put(Options.DISPATCHER, (b, v) -> b.dispatcher((Dispatcher) v));
        SERVER.put(Options.BACKLOG, (b, v) -> b.backlog((Integer) v));
        SERVER.put(Options.ACCEPTS, (b, v) -> b.accepts((Integer) v));
        SERVER.put(Options.PAYLOAD, (b, v) -> b.payloadBytes((Integer) v));
        SERVER.put(Options.HEARTBEAT, (b, v) -> b.heartbeat((Duration) v));
        SERVER.put(Options.FRAME_TIMEOUT, (b, v) -> b.frameTimeout((Duration) v));
        SERVER.put(Options.PARTIAL_FRAME_BUDGET, (b, v) -> b.partialFrameBudgetBytes((Long) v));
    }

    /** The client options {@code s} describes, on top of {@code base}. */
    static ClientOptions client(Settings s, ClientOptions base) {
        ClientOptions.Builder b = base.toBuilder();
        apply(s, CLIENT, b);
        if (s.get(Options.RECONNECT_BACKOFF_MIN) != null || s.get(Options.RECONNECT_BACKOFF_MAX) != null) {
            b.reconnectBackoff(or(s.get(Options.RECONNECT_BACKOFF_MIN), base.reconnectBackoffMin()),
                    or(s.get(Options.RECONNECT_BACKOFF_MAX), base.reconnectBackoffMax()));
        }
        b.socket(socket(s, base.socket()));
        return built(b::build, s, CLIENT.keySet());
    }

    /** The server options {@code s} describes, on top of the defaults. */
    static ServerOptions server(Settings s) {
        ServerOptions.Builder b = ServerOptions.builder();
        ServerOptions defaults = b.build();
        apply(s, SERVER, b);
        if (s.get(Options.SHUTDOWN_GRACE) != null || s.get(Options.SHUTDOWN_TIMEOUT) != null) {
            b.shutdown(or(s.get(Options.SHUTDOWN_GRACE), defaults.shutdownGrace()),
                    or(s.get(Options.SHUTDOWN_TIMEOUT), defaults.shutdownTimeout()));
        }
        b.socket(socket(s, defaults.socket()));
        return built(b::build, s, SERVER.keySet());
    }

    static SocketOptions socket(Settings s, SocketOptions base) {
        if (s.options().stream().noneMatch(SOCKET::contains)) {
            return base;
        }
        SocketOptions.Builder b = SocketOptions.builder()
                .tcpNoDelay(or(s.get(Options.TCP_NO_DELAY), base.tcpNoDelay()))
                .keepAlive(or(s.get(Options.KEEP_ALIVE), base.keepAlive()))
                .sendBufferBytes(or(s.get(Options.SEND_BUFFER), base.sendBufferBytes()))
                .receiveBufferBytes(or(s.get(Options.RECEIVE_BUFFER), base.receiveBufferBytes()));
        int low = or(s.get(Options.WRITE_BUFFER_LOW), base.writeBufferLowWaterMark());
        int high = or(s.get(Options.WRITE_BUFFER_HIGH), base.writeBufferHighWaterMark());
        try {
            return b.writeBufferWaterMarks(low, high).build();
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(whereOf(s, Options.WRITE_BUFFER_LOW, Options.WRITE_BUFFER_HIGH)
                    + e.getMessage(), e);
        }
    }

    /** Puts a socket object's values into settings, as if each had been set on its own. */
    static void socketInto(Settings s, SocketOptions socket, String where) {
        s.put(Options.TCP_NO_DELAY, socket.tcpNoDelay(), where);
        s.put(Options.KEEP_ALIVE, socket.keepAlive(), where);
        s.put(Options.SEND_BUFFER, socket.sendBufferBytes(), where);
        s.put(Options.RECEIVE_BUFFER, socket.receiveBufferBytes(), where);
        s.put(Options.WRITE_BUFFER_LOW, socket.writeBufferLowWaterMark(), where);
        s.put(Options.WRITE_BUFFER_HIGH, socket.writeBufferHighWaterMark(), where);
    }

    /** A service's own pool when {@code s} sets any pool option, else null (the protocol's pool). */
    static PoolOptions pool(Settings s) {
        if (s.options().stream().noneMatch(POOL::contains)) {
            return null;
        }
        PoolOptions pool = PoolOptions.defaults();
        pool = s.get(Options.THREAD_POOL) != null ? pool.withKind(s.get(Options.THREAD_POOL)) : pool;
        pool = s.get(Options.THREADS) != null ? pool.withThreads(s.get(Options.THREADS)) : pool;
        pool = s.get(Options.QUEUES) != null ? pool.withQueues(s.get(Options.QUEUES)) : pool;
        pool = s.get(Options.CORE_THREADS) != null ? pool.withCoreThreads(s.get(Options.CORE_THREADS)) : pool;
        return s.get(Options.ALIVE) != null ? pool.withAlive(s.get(Options.ALIVE)) : pool;
    }

    /** Puts a pool object's values into settings. */
    static void poolInto(Settings s, PoolOptions pool, String where) {
        s.put(Options.THREAD_POOL, pool.kind(), where);
        s.put(Options.THREADS, pool.threads(), where);
        s.put(Options.QUEUES, pool.queues(), where);
        s.put(Options.CORE_THREADS, pool.coreThreads(), where);
        s.put(Options.ALIVE, pool.alive(), where);
    }

    private static <B> void apply(Settings s, Map<Option<?>, BiConsumer<B, Object>> setters, B builder) {
        for (Map.Entry<Option<?>, BiConsumer<B, Object>> setter : setters.entrySet()) {
            Settings.Setting setting = s.setting(setter.getKey());
            if (setting != null) {
                try {
                    setter.getValue().accept(builder, setting.value());
                } catch (IllegalArgumentException e) {
                    throw new IllegalArgumentException(prefix(setting.where()) + e.getMessage(), e);
                }
            }
        }
    }

    /** Builds, naming where the settings came from when values that are fine alone clash together. */
    private static <T> T built(java.util.function.Supplier<T> build, Settings s, Set<Option<?>> options) {
        try {
            return build.get();
        } catch (IllegalArgumentException e) {
            String where = whereOf(s, s.options().toArray(Option<?>[]::new)); // values that clash together
            throw where.isEmpty() ? e : new IllegalArgumentException(where + e.getMessage(), e);
        }
    }

    private static String whereOf(Settings s, Option<?>... options) {
        for (Option<?> option : options) {
            Settings.Setting setting = s.setting(option);
            if (setting != null && !setting.where().isEmpty()) {
                return setting.where() + ": ";
            }
        }
        return "";
    }

    private static String prefix(String where) {
        return where.isEmpty() ? "" : where + ": ";
    }

    private static <T> T or(T value, T fallback) {
        return value != null ? value : fallback;
    }
}
