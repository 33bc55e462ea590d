package io.ferry.rpc.registry;

/**
 * Where providers announce themselves and consumers find them. Implementations keep registrations alive across
 * connection loss and session expiry, and keep pushing the last known provider list while the registry is away.
 * Thread-safe.
 */
public interface Registry extends AutoCloseable {
    /**
     * Announces a provider or consumer URL until {@link #unregister} or {@link #close}. Returns once the URL is
     * visible to subscribers, or, while the registry is unreachable, once it is kept for the next connection.
     */
    void register(ServiceUrl url);

    void unregister(ServiceUrl url);

    /** Starts pushing the live providers of {@code key} to {@code listener}, beginning with the current list. */
    void subscribe(ServiceKey key, ProviderListener listener);

    void unsubscribe(ServiceKey key, ProviderListener listener);

    /**
     * Where the registry is and whether it is reachable, for messages: {@code "ZooKeeper 10.0.0.9:2181, unreachable
     * for 42 s"}.
     */
    String describe();

    /** Where the session stands now, read without blocking; empty for a registry that cannot tell. */
    default java.util.Optional<RegistryState> state() {
        return java.util.Optional.empty();
    }

    /** Unregisters everything this registry registered and releases its session. Idempotent. */
    @Override
    void close();
}
