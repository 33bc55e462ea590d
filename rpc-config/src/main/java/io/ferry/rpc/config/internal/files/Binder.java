package io.ferry.rpc.config.internal.files;

import io.ferry.rpc.config.ApplicationConfig;
import io.ferry.rpc.config.ClusterMode;
import io.ferry.rpc.config.ConsumerConfig;
import io.ferry.rpc.config.LoadBalance;
import io.ferry.rpc.config.MethodConfig;
import io.ferry.rpc.config.ProtocolConfig;
import io.ferry.rpc.config.ReferenceConfig;
import io.ferry.rpc.config.RegistryConfig;
import io.ferry.rpc.config.ServiceConfig;
import io.ferry.rpc.config.option.Option;
import io.ferry.rpc.config.option.Options;
import io.ferry.rpc.config.option.Scope;
import io.ferry.rpc.config.option.Settings;
import io.ferry.rpc.remoting.Dispatcher;
import io.ferry.rpc.remoting.PoolOptions;
import io.ferry.rpc.remoting.SocketOptions;
import io.ferry.rpc.remoting.ThreadPoolKind;

import java.time.Duration;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.function.BiConsumer;

/**
 * Where each option goes in the typed configs, per scope: one table from option to setter, so that a file can set
 * exactly what the option table declares ({@code BinderTest} checks that the two agree).
 */
final class Binder {
    private Binder() {
    }

    /** Socket options are set together on one {@link SocketOptions}, at the protocol and at the consumer. */
    private static final Set<Option<?>> SOCKET = Set.of(Options.TCP_NO_DELAY, Options.KEEP_ALIVE,
            Options.SEND_BUFFER, Options.RECEIVE_BUFFER, Options.WRITE_BUFFER_LOW, Options.WRITE_BUFFER_HIGH);
    /** A service's pool options are set together on one {@link PoolOptions}. */
    private static final Set<Option<?>> POOL = Set.of(Options.THREADS, Options.QUEUES, Options.THREAD_POOL,
            Options.CORE_THREADS, Options.ALIVE);

    static final Map<Option<?>, BiConsumer<ConsumerConfig.Builder, Object>> CONSUMER = new HashMap<>();
    static final Map<Option<?>, BiConsumer<ProtocolConfig.Builder, Object>> PROTOCOL = new HashMap<>();
    static final Map<Option<?>, BiConsumer<ReferenceConfig.Builder<?>, Object>> REFERENCE = new HashMap<>();
    static final Map<Option<?>, BiConsumer<ServiceConfig.Builder<?>, Object>> SERVICE = new HashMap<>();
    /** Options a method takes (into its {@link MethodConfig}). */
    static final Set<Option<?>> METHOD = Set.of(Options.TIMEOUT, Options.ONEWAY, Options.IDEMPOTENT);
    static final Set<Option<?>> REGISTRY = Set.of(Options.REGISTRY_ADDRESS, Options.SESSION_TIMEOUT,
            Options.REGISTRY_CONNECTION_TIMEOUT, Options.REGISTRY_FILE);
    static final Set<Option<?>> APPLICATION = Set.of(Options.APPLICATION_NAME);

    static {
        CONSUMER.put(Options.TIMEOUT, (b, v) -> b.timeout((Duration) v));
        CONSUMER.put(Options.RETRIES, (b, v) -> b.retries((Integer) v));
        CONSUMER.put(Options.LOAD_BALANCE, (b, v) -> b.loadBalance((LoadBalance) v));
        CONSUMER.put(Options.CLUSTER, (b, v) -> b.cluster((ClusterMode) v));
        CONSUMER.put(Options.FORKS, (b, v) -> b.forks((Integer) v));
        CONSUMER.put(Options.ACTIVES, (b, v) -> b.actives((Integer) v));
        CONSUMER.put(Options.CONNECTIONS, (b, v) -> b.connections((Integer) v));
        CONSUMER.put(Options.MAX_CONNECTIONS, (b, v) -> b.maxConnections((Integer) v));
        CONSUMER.put(Options.POOL_IDLE_TIMEOUT, (b, v) -> b.poolIdleTimeout((Duration) v));
        CONSUMER.put(Options.CONGESTION_WAIT, (b, v) -> b.congestionWait((Duration) v));
        CONSUMER.put(Options.LAZY, (b, v) -> b.lazy((Boolean) v));
        CONSUMER.put(Options.CHECK, (b, v) -> b.check((Boolean) v));
        CONSUMER.put(Options.WAIT_FOR_READY, (b, v) -> b.waitForReady((Boolean) v));
        CONSUMER.put(Options.CONNECT_TIMEOUT, (b, v) -> b.connectTimeout((Duration) v));
        CONSUMER.put(Options.CONNECT_SPREAD, (b, v) -> b.connectSpread((Duration) v));
        CONSUMER.put(Options.IO_THREADS, (b, v) -> b.ioThreads((Integer) v));
        CONSUMER.put(Options.PAYLOAD, (b, v) -> b.payloadBytes((Integer) v));
        CONSUMER.put(Options.HEARTBEAT, (b, v) -> b.heartbeat((Duration) v));

        PROTOCOL.put(Options.HOST, (b, v) -> b.host((String) v));
        PROTOCOL.put(Options.PORT, (b, v) -> b.port((Integer) v));
        PROTOCOL.put(Options.IO_THREADS, (b, v) -> b.ioThreads((Integer) v));
        PROTOCOL.put(Options.THREADS, (b, v) -> b.threads((Integer) v));
        PROTOCOL.put(Options.QUEUES, (b, v) -> b.queues((Integer) v));
        PROTOCOL.put(Options.THREAD_POOL, (b, v) -> b.threadPool((ThreadPoolKind) v));
        PROTOCOL.put(Options.CORE_THREADS, (b, v) -> b.coreThreads((Integer) v));
        PROTOCOL.put(Options.ALIVE, (b, v) -> b.alive((Duration) v));
        PROTOCOL.put(Options.DISPATCHER, (b, v) -> b.dispatcher((Dispatcher) v));
        PROTOCOL.put(Options.BACKLOG, (b, v) -> b.backlog((Integer) v));
        PROTOCOL.put(Options.ACCEPTS, (b, v) -> b.accepts((Integer) v));
        PROTOCOL.put(Options.PAYLOAD, (b, v) -> b.payloadBytes((Integer) v));
        PROTOCOL.put(Options.HEARTBEAT, (b, v) -> b.heartbeat((Duration) v));
        PROTOCOL.put(Options.FRAME_TIMEOUT, (b, v) -> b.frameTimeout((Duration) v));
        PROTOCOL.put(Options.PARTIAL_FRAME_BUDGET, (b, v) -> b.partialFrameBudgetBytes((Long) v));

        REFERENCE.put(Options.URL, (b, v) -> b.url((String) v));
        REFERENCE.put(Options.VERSION, (b, v) -> b.version((String) v));
        REFERENCE.put(Options.GROUP, (b, v) -> b.group((String) v));
        REFERENCE.put(Options.TIMEOUT, (b, v) -> b.timeout((Duration) v));
        REFERENCE.put(Options.RETRIES, (b, v) -> b.retries((Integer) v));
        REFERENCE.put(Options.LOAD_BALANCE, (b, v) -> b.loadBalance((LoadBalance) v));
        REFERENCE.put(Options.CLUSTER, (b, v) -> b.cluster((ClusterMode) v));
        REFERENCE.put(Options.FORKS, (b, v) -> b.forks((Integer) v));
        REFERENCE.put(Options.ACTIVES, (b, v) -> b.actives((Integer) v));
        REFERENCE.put(Options.CONNECTIONS, (b, v) -> b.connections((Integer) v));
        REFERENCE.put(Options.LAZY, (b, v) -> b.lazy((Boolean) v));
        REFERENCE.put(Options.CHECK, (b, v) -> b.check((Boolean) v));
        REFERENCE.put(Options.WAIT_FOR_READY, (b, v) -> b.waitForReady((Boolean) v));

        SERVICE.put(Options.VERSION, (b, v) -> b.version((String) v));
        SERVICE.put(Options.GROUP, (b, v) -> b.group((String) v));
        SERVICE.put(Options.TIMEOUT, (b, v) -> b.timeout((Duration) v));
        SERVICE.put(Options.EXECUTES, (b, v) -> b.executes((Integer) v));
    }

    /** The options a scope takes here; must equal the option table's scopes (BinderTest). */
    static Set<Option<?>> boundAt(Scope scope) {
        Set<Option<?>> bound = new java.util.HashSet<>();
        switch (scope) {
            case CONSUMER -> {
                bound.addAll(CONSUMER.keySet());
                bound.addAll(SOCKET);
                bound.add(Options.RECONNECT_BACKOFF_MIN);
                bound.add(Options.RECONNECT_BACKOFF_MAX);
            }
            case PROTOCOL -> {
                bound.addAll(PROTOCOL.keySet());
                bound.addAll(SOCKET);
                bound.add(Options.SHUTDOWN_GRACE);
                bound.add(Options.SHUTDOWN_TIMEOUT);
            }
            case REFERENCE -> bound.addAll(REFERENCE.keySet());
            case SERVICE -> {
                bound.addAll(SERVICE.keySet());
                bound.addAll(POOL);
            }
            case PROVIDER -> {
                // a provider default goes to the protocol when the protocol takes it, else to every service
                for (Option<?> option : Options.all()) {
                    if (option.scopes().contains(Scope.PROVIDER)
                            && (boundAt(Scope.PROTOCOL).contains(option) || boundAt(Scope.SERVICE).contains(option))) {
                        bound.add(option);
                    }
                }
            }
            case METHOD -> bound.addAll(METHOD);
            case REGISTRY -> bound.addAll(REGISTRY);
            case APPLICATION -> bound.addAll(APPLICATION);
            default -> {
            }
        }
        return bound;
    }

    /**
     * Places the provider's defaults: those the protocol takes under the protocol's own settings, the others under
     * every service's. A setting of the protocol or the service itself wins.
     */
    static void placeProviderDefaults(Settings provider, Settings protocol, Iterable<Settings> services) {
        protocol.fillFrom(provider.only(o -> o.scopes().contains(Scope.PROTOCOL)));
        Settings perService = provider.only(o -> !o.scopes().contains(Scope.PROTOCOL));
        services.forEach(service -> service.fillFrom(perService));
    }

    static ApplicationConfig application(Settings s) {
        String name = s.get(Options.APPLICATION_NAME);
        return name == null ? ApplicationConfig.defaults() : ApplicationConfig.of(name);
    }

    static RegistryConfig registry(Settings s) {
        String address = s.get(Options.REGISTRY_ADDRESS);
        if (address == null) {
            if (!s.isEmpty()) {
                throw new IllegalArgumentException(s.setting(s.options().iterator().next()).where()
                        + ": a registry option without ferry.registry.address");
            }
            return null;
        }
        return RegistryConfig.of(address, s.get(Options.SESSION_TIMEOUT), s.get(Options.REGISTRY_CONNECTION_TIMEOUT),
                s.get(Options.REGISTRY_FILE));
    }

    static ConsumerConfig consumer(Settings s) {
        ConsumerConfig.Builder b = ConsumerConfig.builder();
        apply(s, CONSUMER, b);
        if (s.get(Options.RECONNECT_BACKOFF_MIN) != null || s.get(Options.RECONNECT_BACKOFF_MAX) != null) {
            b.reconnectBackoff(orDefault(s.get(Options.RECONNECT_BACKOFF_MIN), Duration.ofMillis(100)),
                    orDefault(s.get(Options.RECONNECT_BACKOFF_MAX), Duration.ofSeconds(5)));
        }
        SocketOptions socket = socket(s);
        if (socket != null) {
            b.socket(socket);
        }
        return b.build();
    }

    static ProtocolConfig protocol(Settings s) {
        ProtocolConfig.Builder b = ProtocolConfig.builder();
        apply(s, PROTOCOL, b);
        if (s.get(Options.SHUTDOWN_GRACE) != null || s.get(Options.SHUTDOWN_TIMEOUT) != null) {
            b.shutdown(orDefault(s.get(Options.SHUTDOWN_GRACE), Duration.ofMillis(500)),
                    orDefault(s.get(Options.SHUTDOWN_TIMEOUT), Duration.ofSeconds(10)));
        }
        SocketOptions socket = socket(s);
        if (socket != null) {
            b.socket(socket);
        }
        return b.build();
    }

    static void reference(FileModel.Member member, ReferenceConfig.Builder<?> b) {
        apply(member.settings, REFERENCE, b);
        member.methods.forEach((name, settings) -> b.method(method(name, settings)));
    }

    static void service(FileModel.Member member, ServiceConfig.Builder<?> b) {
        apply(member.settings, SERVICE, b);
        Settings s = member.settings;
        if (s.options().stream().anyMatch(POOL::contains)) {
            PoolOptions pool = PoolOptions.defaults();
            pool = s.get(Options.THREAD_POOL) != null ? pool.withKind(s.get(Options.THREAD_POOL)) : pool;
            pool = s.get(Options.THREADS) != null ? pool.withThreads(s.get(Options.THREADS)) : pool;
            pool = s.get(Options.QUEUES) != null ? pool.withQueues(s.get(Options.QUEUES)) : pool;
            pool = s.get(Options.CORE_THREADS) != null ? pool.withCoreThreads(s.get(Options.CORE_THREADS)) : pool;
            pool = s.get(Options.ALIVE) != null ? pool.withAlive(s.get(Options.ALIVE)) : pool;
            b.pool(pool);
        }
        member.methods.forEach((name, settings) -> b.method(method(name, settings)));
    }

    private static MethodConfig method(String name, Settings s) {
        return new MethodConfig(name, s.get(Options.TIMEOUT), s.get(Options.ONEWAY), s.get(Options.IDEMPOTENT));
    }

    private static SocketOptions socket(Settings s) {
        if (s.options().stream().noneMatch(SOCKET::contains)) {
            return null;
        }
        SocketOptions.Builder b = SocketOptions.builder();
        if (s.get(Options.TCP_NO_DELAY) != null) {
            b.tcpNoDelay(s.get(Options.TCP_NO_DELAY));
        }
        if (s.get(Options.KEEP_ALIVE) != null) {
            b.keepAlive(s.get(Options.KEEP_ALIVE));
        }
        if (s.get(Options.SEND_BUFFER) != null) {
            b.sendBufferBytes(s.get(Options.SEND_BUFFER));
        }
        if (s.get(Options.RECEIVE_BUFFER) != null) {
            b.receiveBufferBytes(s.get(Options.RECEIVE_BUFFER));
        }
        if (s.get(Options.WRITE_BUFFER_LOW) != null || s.get(Options.WRITE_BUFFER_HIGH) != null) {
            b.writeBufferWaterMarks(orDefault(s.get(Options.WRITE_BUFFER_LOW), 32 * 1024),
                    orDefault(s.get(Options.WRITE_BUFFER_HIGH), 64 * 1024));
        }
        return b.build();
    }

    /** Applies every setting the map knows; a value the builder refuses is reported with where it was set. */
    private static <B> void apply(Settings s, Map<Option<?>, BiConsumer<B, Object>> setters, B builder) {
        for (Option<?> option : s.options()) {
            BiConsumer<B, Object> setter = setters.get(option);
            if (setter == null) {
                continue;
            }
            Settings.Setting setting = s.setting(option);
            try {
                setter.accept(builder, setting.value());
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(setting.where() + ": " + e.getMessage(), e);
            }
        }
    }

    private static <T> T orDefault(T value, T fallback) {
        return value != null ? value : fallback;
    }

    /** Scopes a file may set options at. */
    static final Set<Scope> FILE_SCOPES = EnumSet.of(Scope.APPLICATION, Scope.REGISTRY, Scope.PROTOCOL,
            Scope.PROVIDER, Scope.CONSUMER, Scope.REFERENCE, Scope.SERVICE, Scope.METHOD);
}
