package io.ferry.rpc.config.internal.cluster;

import io.ferry.rpc.Ticker;
import io.ferry.rpc.cluster.Endpoint;
import io.ferry.rpc.config.OutlierEjection;
import io.ferry.rpc.remoting.ProviderEndpoint;

import java.util.List;

/**
 * The one provider a reference's url names (never ejected: there is nowhere else to go), sent the url's token with
 * every call when it names one.
 */
public final class StaticDirectory implements ClusterDirectory {
    private final ProviderEndpoint endpoint;
    private final List<Endpoint> endpoints;
    private final Ticker ticker;

    /** @param token the url's {@code token} parameter, or null for none */
    public StaticDirectory(ProviderEndpoint endpoint, Clocks clocks, String token) {
        this.endpoint = endpoint;
        this.ticker = clocks.ticker();
        Ejections none = new Ejections(OutlierEjection.disabled(), () -> 1);
        this.endpoints = List.of(new TrackedEndpoint(endpoint, endpoint.weight(), none, clocks.ticker(),
                clocks.wall()::millis, 0, 0, token));
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
    public String awaitReady(long timeoutNanos) throws InterruptedException {
        return ReadyCheck.await(() -> List.of(endpoint), this, timeoutNanos, ticker);
    }

    @Override
    public void close() {
        endpoint.close();
    }
}
