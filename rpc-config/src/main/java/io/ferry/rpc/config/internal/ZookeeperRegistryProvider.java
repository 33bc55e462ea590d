package io.ferry.rpc.config.internal;

import io.ferry.rpc.config.extension.RegistryContext;
import io.ferry.rpc.config.extension.RegistryProvider;
import io.ferry.rpc.registry.Registry;
import io.ferry.rpc.registry.ZookeeperRegistry;

/** Ferry's own registry, for {@code zookeeper://} addresses, registered by name like any other. */
public final class ZookeeperRegistryProvider implements RegistryProvider {
    @Override
    public String name() {
        return "zookeeper";
    }

    /** Runs on the Ferry's one scheduler, in order, and reads its ticker: no thread or clock of its own. */
    @Override
    public Registry open(RegistryContext context) {
        return new ZookeeperRegistry(context.registry().options().forApplication(context.application()),
                context.timer(), context.ticker());
    }
}
