package io.ferry.rpc.benchmark.c10k;

import io.ferry.rpc.benchmark.suite.systems.DubboSystem;
import org.apache.dubbo.config.ApplicationConfig;
import org.apache.dubbo.config.ProtocolConfig;
import org.apache.dubbo.config.RegistryConfig;
import org.apache.dubbo.config.ServiceConfig;
import org.apache.dubbo.config.bootstrap.DubboBootstrap;

/**
 * The C10K experiment's provider as stock Apache Dubbo 3.3.6: {@link Ping} over the dubbo protocol with Dubbo's
 * defaults (hessian2, its IO threads, backlog and business pool), the heartbeat compressed like Ferry's. Prints
 * {@code READY <port>} once exported and runs until killed. It cannot count the heartbeats it answers, so its rows
 * have none. Dubbo binds every address: run it where loopback is the only one (c10k.sh does, with root).
 * Usage: {@code C10kDubboProvider <port> <heartbeat ms>}.
 */
public final class C10kDubboProvider {
    private C10kDubboProvider() {
    }

    public static void main(String[] args) throws Exception {
        int port = Integer.parseInt(args[0]);
        DubboSystem.keepOnLoopback(); // else its filters look for the host's address on every request
        ApplicationConfig application = new ApplicationConfig("c10k-dubbo-provider");
        application.setQosEnable(false);
        ProtocolConfig protocol = new ProtocolConfig("dubbo", port);
        protocol.setSerialization("hessian2");
        protocol.setHeartbeat(Integer.parseInt(args[1]));
        ServiceConfig<Ping> service = new ServiceConfig<>();
        service.setInterface(Ping.class);
        service.setRef(value -> value);
        DubboBootstrap.getInstance().application(application).registry(new RegistryConfig("N/A"))
                .protocol(protocol).service(service).start();
        System.out.println("READY " + port);
        System.out.flush();
        Thread.currentThread().join();
    }
}
