package io.ferry.rpc.benchmark.c10k;

import io.ferry.rpc.ClassAllowList;
import io.ferry.rpc.Deadline;
import io.ferry.rpc.Invocation;
import io.ferry.rpc.Ticker;
import io.ferry.rpc.remoting.Client;
import io.ferry.rpc.remoting.ClientOptions;
import io.ferry.rpc.remoting.EndpointFactory;
import io.ferry.rpc.remoting.ProviderEndpoint;

import java.lang.reflect.Method;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/** Ferry's consumers: one endpoint (and so one connection) each, with Ferry's heartbeat and its jitter. */
final class FerryC10kConsumers implements C10kConsumers {
    private static final Method PING;

    static {
        try {
            PING = Ping.class.getMethod("ping", long.class);
        } catch (NoSuchMethodException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final Client client;
    private final List<ProviderEndpoint> endpoints;

    private FerryC10kConsumers(Client client, List<ProviderEndpoint> endpoints) {
        this.client = client;
        this.endpoints = endpoints;
    }

    /** Opens {@code connections} endpoints to {@code address} and waits until every one is ready. */
    static FerryC10kConsumers open(InetSocketAddress address, int connections, long heartbeatMillis, double jitter)
            throws Exception {
        ClientOptions options = ClientOptions.builder().connections(1).heartbeat(Duration.ofMillis(heartbeatMillis))
                .heartbeatJitter(jitter).build();
        Client client = Client.create();
        EndpointFactory factory = client.endpoints(Ping.class, ClassAllowList.none(), options);
        List<ProviderEndpoint> endpoints = new ArrayList<>(connections);
        for (int i = 0; i < connections; i++) {
            endpoints.add(factory.open(address, 100, Duration.ofSeconds(5)));
        }
        for (ProviderEndpoint endpoint : endpoints) {
            endpoint.whenReady().get(120, TimeUnit.SECONDS);
        }
        return new FerryC10kConsumers(client, endpoints);
    }

    @Override
    public CompletableFuture<?> ping(int turn, long value) {
        Invocation call = new Invocation(Ping.class.getName(), "", "", PING, new Object[] {value}, Map.of(),
                Deadline.after(Duration.ofSeconds(2), Ticker.system()), false, client.callbackExecutor());
        return endpoints.get(turn % endpoints.size()).invoke(call);
    }

    @Override
    public int ready() {
        return (int) endpoints.stream().filter(ProviderEndpoint::isReady).count();
    }

    @Override
    public void close() {
        endpoints.forEach(ProviderEndpoint::close);
        client.close();
    }
}
