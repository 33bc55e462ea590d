package io.ferry.rpc.benchmark.c10k;

import io.ferry.rpc.benchmark.suite.systems.DubboSystem;
import org.apache.dubbo.config.ApplicationConfig;
import org.apache.dubbo.config.ReferenceConfig;
import org.apache.dubbo.config.bootstrap.DubboBootstrap;

import java.net.InetSocketAddress;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * Stock Dubbo 3.3.6 consumers: one reference with {@code connections=N}, so N clients of Dubbo's own, each with its
 * heartbeat timer and reconnect task, calls going round them. Dubbo's defaults otherwise, but no retries and a
 * 2 s timeout, as the Ferry consumers. Dubbo cannot say which of its connections are up; the report takes the
 * provider's count instead.
 */
final class DubboC10kConsumers implements C10kConsumers {
    private final DubboBootstrap dubbo;
    private final Ping ping;

    private DubboC10kConsumers(DubboBootstrap dubbo, Ping ping) {
        this.dubbo = dubbo;
        this.ping = ping;
    }

    /** Refers to {@code address} with {@code connections} connections; Dubbo opens them all before it returns. */
    static DubboC10kConsumers open(InetSocketAddress address, int connections, long heartbeatMillis) {
        DubboSystem.keepOnLoopback();
        ApplicationConfig application = new ApplicationConfig("c10k-dubbo-consumer");
        application.setQosEnable(false);
        ReferenceConfig<Ping> reference = new ReferenceConfig<>();
        reference.setInterface(Ping.class);
        reference.setUrl("dubbo://" + address.getHostString() + ":" + address.getPort()
                + "?serialization=hessian2&heartbeat=" + heartbeatMillis);
        reference.setParameters(Map.of("heartbeat", String.valueOf(heartbeatMillis)));
        reference.setConnections(connections);
        reference.setTimeout(2000);
        reference.setRetries(0);
        DubboBootstrap dubbo = DubboBootstrap.newInstance();
        dubbo.application(application).reference(reference).start();
        return new DubboC10kConsumers(dubbo, reference.get());
    }

    @Override
    public CompletableFuture<?> ping(int turn, long value) {
        try {
            return ping.pingAsync(value);
        } catch (RuntimeException e) { // Dubbo throws at once when the connection it picked is down
            return CompletableFuture.failedFuture(e);
        }
    }

    @Override
    public int ready() {
        return -1;
    }

    @Override
    public void close() {
        dubbo.destroy();
    }
}
