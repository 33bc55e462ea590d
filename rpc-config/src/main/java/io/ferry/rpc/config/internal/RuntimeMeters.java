package io.ferry.rpc.config.internal;

import io.ferry.rpc.remoting.Client;
import io.ferry.rpc.remoting.Server;

/**
 * Where a Ferry tells its meters what it has started, so that gauges and counters of each part appear as the part
 * does and go when the Ferry closes. Free of Micrometer's types: a Ferry without a meter registry has {@link #NONE}
 * and never loads the classes behind the other implementation. Calls must never fail what the Ferry does.
 */
public interface RuntimeMeters {
    /** For a Ferry without a meter registry. */
    RuntimeMeters NONE = new RuntimeMeters() {
    };

    default void clientStarted(Client client) {
    }

    default void serverStarted(Server server) {
    }

    default void registryOpened(RegistryBridge registry) {
    }

    default void referenceOpened(ReferenceStats reference) {
    }

    /** A service was exported on the server ({@link #serverStarted} came first). */
    default void serviceExported(String service) {
    }

    /** Removes every meter this Ferry registered: a registry shared with other Ferrys keeps no stale value. */
    default void close() {
    }
}
