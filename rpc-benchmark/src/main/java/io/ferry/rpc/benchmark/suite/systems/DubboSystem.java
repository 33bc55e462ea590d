package io.ferry.rpc.benchmark.suite.systems;

import io.ferry.rpc.benchmark.suite.workload.UserService;
import io.ferry.rpc.benchmark.suite.workload.Users;
import org.apache.dubbo.config.ApplicationConfig;
import org.apache.dubbo.config.ProtocolConfig;
import org.apache.dubbo.config.ReferenceConfig;
import org.apache.dubbo.config.RegistryConfig;
import org.apache.dubbo.config.ServiceConfig;
import org.apache.dubbo.config.bootstrap.DubboBootstrap;

import java.net.NetworkInterface;
import java.net.SocketException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Stock Apache Dubbo 3.3.6 with its defaults (its filter chain included), the dubbo protocol and a direct url:
 * hessian2 on both sides for "dubbo", fastjson2 on both sides (what two 3.x peers negotiate through a registry) for
 * "dubbo-fastjson2". Dubbo cannot set its consumer's IO threads or turn Nagle on; those tunings are ignored.
 */
public final class DubboSystem {
    static {
        keepOnLoopback();
    }

    private DubboSystem() {
    }

    private static String serialization(String system) {
        return system.equals("dubbo-fastjson2") ? "fastjson2" : "hessian2";
    }

    /**
     * A Dubbo consumer would rewrite 127.0.0.1 to the host's address unless the other interfaces are ignored. Runs
     * once when this class loads; other harnesses that start Dubbo call it before they do.
     */
    public static void keepOnLoopback() {
        try {
            List<String> names = new ArrayList<>();
            for (NetworkInterface nic : Collections.list(NetworkInterface.getNetworkInterfaces())) {
                if (!nic.isLoopback()) {
                    names.add(nic.getName());
                }
            }
            System.setProperty("dubbo.network.interface.ignored", String.join(",", names));
            System.setProperty("dubbo.application.qos-enable", "false");
            if (System.getProperty("dubbo.application.logger") == null) {
                System.setProperty("dubbo.application.logger", "slf4j"); // its warnings, not its info, in our logs
            }
        } catch (SocketException e) {
            throw new IllegalStateException(e);
        }
    }

    private static ApplicationConfig application(String name) {
        ApplicationConfig application = new ApplicationConfig(name);
        application.setQosEnable(false);
        return application;
    }

    public static Provider provider(String system, String host, int port, Tuning tuning) {
        ProtocolConfig protocol = new ProtocolConfig("dubbo", port);
        protocol.setSerialization(serialization(system));
        if (tuning.ioThreads() > 0) {
            protocol.setIothreads(tuning.ioThreads());
        }
        ServiceConfig<UserService> service = new ServiceConfig<>();
        service.setInterface(UserService.class);
        service.setRef(new Users());
        DubboBootstrap dubbo = DubboBootstrap.newInstance();
        dubbo.application(application("bench-provider")).registry(new RegistryConfig("N/A")).protocol(protocol)
                .service(service).start();
        return Provider.of(port, dubbo::destroy);
    }

    public static Consumer consumer(String system, String host, int port, Tuning tuning) {
        ReferenceConfig<UserService> reference = new ReferenceConfig<>();
        reference.setInterface(UserService.class);
        reference.setUrl("dubbo://" + host + ":" + port + "?serialization=" + serialization(system));
        reference.setTimeout((int) FerrySystem.TIMEOUT.toMillis());
        if (tuning.connections() > 0) {
            reference.setConnections(tuning.connections());
        }
        DubboBootstrap dubbo = DubboBootstrap.newInstance();
        dubbo.application(application("bench-consumer")).reference(reference).start();
        UserService service = reference.get();
        return Consumer.of(service, dubbo::destroy);
    }
}
