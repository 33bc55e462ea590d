package io.ferry.rpc.config;

import io.ferry.rpc.config.option.Option;
import io.ferry.rpc.config.option.Options;
import io.ferry.rpc.config.option.Scope;
import io.ferry.rpc.config.option.Settings;
import io.ferry.rpc.remoting.ClientOptions;
import io.ferry.rpc.remoting.ServerOptions;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

/**
 * Every consumer and protocol option reaches the remoting layer's options, and the option table's defaults are the
 * remoting layer's: the table documents what really happens when nothing is set.
 */
class TransportSettingsTest {
    /** Where an option shows in the remoting objects when its getter is not named after it. */
    private static final Map<Option<?>, String> PATHS = Map.of(Options.THREAD_POOL, "pool.kind",
            Options.CORE_THREADS, "pool.coreThreads", Options.ALIVE, "pool.alive");

    private static Object read(Object options, Option<?> option) throws Exception {
        String path = PATHS.getOrDefault(option, option.name());
        Object at = options;
        for (String step : path.split("\\.")) {
            at = at.getClass().getMethod(step).invoke(at);
        }
        return at;
    }

    private static Object readAnywhere(Object options, Option<?> option) throws Exception {
        try {
            return read(options, option);
        } catch (NoSuchMethodException e) {
            Object socket = options.getClass().getMethod("socket").invoke(options);
            return socket.getClass().getMethod(option.name()).invoke(socket);
        }
    }

    /** A valid value other than the default. */
    private static Object sample(Option<?> option) {
        if (option == Options.RECONNECT_BACKOFF_MIN) {
            return Duration.ofMillis(300);
        }
        if (option == Options.WRITE_BUFFER_LOW) {
            return 40_000;
        }
        if (option == Options.WRITE_BUFFER_HIGH) {
            return 80_000;
        }
        if (option == Options.HOST) {
            return "127.0.0.1";
        }
        if (option.type() == Duration.class) {
            return Duration.ofMillis(Math.max(option.min(), 0) + 4321);
        }
        if (option.type() == Boolean.class) {
            return !Boolean.TRUE.equals(option.defaultValue());
        }
        if (option.type().isEnum()) {
            for (Object constant : option.type().getEnumConstants()) {
                if (!constant.equals(option.defaultValue())) {
                    return constant;
                }
            }
        }
        long n = option.min() >= 1024 ? option.min() * 3 : Math.min(Math.max(option.min(), 0) + 7, option.max());
        return option.type() == Long.class ? (Object) n : (Object) (int) n;
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static Settings one(Option option) {
        return new Settings().put(option, sample(option), "test");
    }

    @Test
    void everyConsumerTransportOptionReachesTheClientOptions() throws Exception {
        for (Option<?> option : Options.all()) {
            if (option.scopes().contains(Scope.CONSUMER) && isTransport(option)) {
                ClientOptions client = TransportSettings.client(one(option), ClientOptions.defaults());
                assertEquals(sample(option), readAnywhere(client, option), option.name());
            }
        }
    }

    @Test
    void everyProtocolOptionReachesTheServerOptions() throws Exception {
        for (Option<?> option : Options.all()) {
            if (option.scopes().contains(Scope.PROTOCOL)) {
                ServerOptions server = TransportSettings.server(one(option));
                assertEquals(sample(option), readAnywhere(server, option), option.name());
            }
        }
    }

    @Test
    void theTablesDefaultsAreTheRemotingLayersDefaults() throws Exception {
        ServerOptions server = TransportSettings.server(new Settings());
        ClientOptions client = ClientOptions.defaults();
        for (Option<?> option : Options.all()) {
            if (option.defaultValue() == null) {
                continue;
            }
            if (option.scopes().contains(Scope.PROTOCOL)) {
                assertEquals(option.defaultValue(), readAnywhere(server, option), "protocol " + option.name());
            }
            if (option.scopes().contains(Scope.CONSUMER) && isTransport(option)) {
                assertEquals(option.defaultValue(), readAnywhere(client, option), "consumer " + option.name());
            }
        }
        ConsumerConfig consumer = ConsumerConfig.defaults();
        assertEquals(Options.TIMEOUT.defaultValue(), consumer.timeout());
        assertEquals(Options.RETRIES.defaultValue(), consumer.retries());
        assertEquals(Options.CONNECT_SPREAD.defaultValue(), consumer.connectSpread());
        assertNotNull(Options.PAYLOAD.defaultValue());
    }

    /** Consumer options that live in the client transport, not in the cluster layer. */
    private static boolean isTransport(Option<?> option) {
        return option != Options.TIMEOUT && option != Options.RETRIES && option != Options.LOAD_BALANCE
                && option != Options.CLUSTER && option != Options.FILTER && option != Options.FORKS
                && option != Options.ACTIVES
                && option != Options.CHECK && option != Options.CONNECT_SPREAD && option != Options.IO_THREADS;
    }
}
