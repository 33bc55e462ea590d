package io.ferry.rpc.registry;

import java.util.List;

/** Receives the complete list of live providers of one service key, every time it changes. */
@FunctionalInterface
public interface ProviderListener {
    /** Called from the registry's own thread; must not block. The list is immutable and may be empty. */
    void providersChanged(List<ProviderInstance> providers);
}
