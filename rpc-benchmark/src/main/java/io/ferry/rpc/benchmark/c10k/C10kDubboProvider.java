package io.ferry.rpc.benchmark.c10k;

import io.ferry.rpc.benchmark.Cli;
import io.ferry.rpc.benchmark.suite.systems.DubboSystem;
import org.apache.dubbo.config.ApplicationConfig;
import org.apache.dubbo.config.ProtocolConfig;
import org.apache.dubbo.config.RegistryConfig;
import org.apache.dubbo.config.ServiceConfig;
import org.apache.dubbo.config.bootstrap.DubboBootstrap;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

import java.util.concurrent.Callable;

/**
 * The C10K experiment's provider as stock Apache Dubbo 3.3.6: {@link Ping} over the dubbo protocol with Dubbo's
 * defaults (hessian2, its IO threads, backlog and business pool), the heartbeat compressed like Ferry's. Prints
 * {@code READY <port>} once exported and runs until killed. It cannot count the heartbeats it answers, so its rows
 * have none. Dubbo binds every address: run it where loopback is the only one (c10k.sh does, with root).
 * Usage: {@code C10kDubboProvider <port> <heartbeat ms>}.
 */
@Command(name = "C10kDubboProvider", description = "Serves Ping with stock Apache Dubbo 3.3.6, prints READY <port> "
        + "and runs until killed: the C10K experiment's provider=dubbo, which C10kExperiment starts.")
public final class C10kDubboProvider implements Callable<Integer> {
    @Mixin
    private Cli.HelpOption help;

    @Parameters(index = "0", paramLabel = "PORT", description = "The TCP port to bind (Dubbo cannot be given 0).")
    private int port;

    @Parameters(index = "1", paramLabel = "MILLIS", description = "Heartbeat interval, in ms.")
    private int heartbeatMillis;

    private C10kDubboProvider() {
    }

    public static void main(String[] args) {
        System.exit(commandLine().execute(args));
    }

    /** The command line {@link #main} parses and runs. */
    public static CommandLine commandLine() {
        return Cli.of(new C10kDubboProvider());
    }

    @Override
    public Integer call() throws InterruptedException {
        DubboSystem.keepOnLoopback(); // else its filters look for the host's address on every request
        ApplicationConfig application = new ApplicationConfig("c10k-dubbo-provider");
        application.setQosEnable(false);
        ProtocolConfig protocol = new ProtocolConfig("dubbo", port);
        protocol.setSerialization("hessian2");
        protocol.setHeartbeat(heartbeatMillis);
        ServiceConfig<Ping> service = new ServiceConfig<>();
        service.setInterface(Ping.class);
        service.setRef(value -> value);
        DubboBootstrap.getInstance().application(application).registry(new RegistryConfig("N/A"))
                .protocol(protocol).service(service).start();
        System.out.println("READY " + port);
        System.out.flush();
        Thread.currentThread().join();
        return 0;
    }
}
