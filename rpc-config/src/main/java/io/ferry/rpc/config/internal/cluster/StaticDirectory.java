package io.ferry.rpc.config.internal.cluster;

import io.ferry.rpc.cluster.Directory;
import io.ferry.rpc.cluster.Endpoint;
import io.ferry.rpc.remoting.ProviderEndpoint;

import java.util.List;

/** The one provider a reference's url names. */
public final class StaticDirectory implements Directory, AutoCloseable {
    private final ProviderEndpoint endpoint;
    private final List<Endpoint> endpoints;

    public StaticDirectory(ProviderEndpoint endpoint) {
        this.endpoint = endpoint;
        this.endpoints = List.of(endpoint);
    }

    @Override
    public List<Endpoint> endpoints() {
        return endpoints;
    }

    @Override
    public String describe() {
        return "dubbo://" + endpoint.address();
    }

    @Override
    public void close() {
        endpoint.close();
    }
}
