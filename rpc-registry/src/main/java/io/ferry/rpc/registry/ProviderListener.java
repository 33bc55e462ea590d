package io.ferry.rpc.registry;

import java.util.List;

/** Receives the complete list of live providers of one service key, every time it changes. */
@FunctionalInterface
public interface ProviderListener {
    /**
     * Called on the registry's executor (its own thread, or the scheduler it was given, which others may share), or
     * once, for a first list from the cache file, on the thread that subscribed. Calls for one subscription never
     * overlap. Must not block. The list is immutable and may be empty.
     */
    void providersChanged(List<ProviderInstance> providers);
}
