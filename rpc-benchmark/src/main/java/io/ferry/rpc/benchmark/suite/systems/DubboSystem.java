package io.ferry.rpc.benchmark.suite.systems;

import io.ferry.rpc.benchmark.suite.workload.UserService;
import io.ferry.rpc.benchmark.suite.workload.Users;
import org.apache.dubbo.common.utils.NetUtils;
import org.apache.dubbo.config.ApplicationConfig;
import org.apache.dubbo.config.ProtocolConfig;
import org.apache.dubbo.config.ReferenceConfig;
import org.apache.dubbo.config.RegistryConfig;
import org.apache.dubbo.config.ServiceConfig;
import org.apache.dubbo.config.SslConfig;
import org.apache.dubbo.config.bootstrap.DubboBootstrap;

import java.lang.reflect.Field;
import java.net.InetAddress;

/**
 * Stock Apache Dubbo 3.3.6 with its defaults (its filter chain included), the dubbo protocol and a direct url:
 * hessian2 on both sides for "dubbo", fastjson2 on both sides (what two 3.x peers negotiate through a registry) for
 * "dubbo-fastjson2". Dubbo cannot set its consumer's IO threads or turn Nagle on; those tunings are ignored.
 *
 * <p>"dubbo-tls" is "dubbo" with one-way TLS, otherwise at Dubbo's defaults (its engine too: OpenSSL when
 * BoringSSL is on the class path, as here). Its provider's protocol has ssl-enabled and the run's provider
 * certificate, and no trust collection, so it asks consumers for no certificate. Its consumer trusts the run's CA
 * and holds a key pair of its own: without one, Dubbo's consumer connects in plain text without a word. It checks
 * no host name (Dubbo gives its engine none), and its JVM needs Netty's default host check off
 * ({@link Systems#jvmOptions}).
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
     * Gives Dubbo 127.0.0.1 as the host's own address, before Dubbo starts. Dubbo looks for a non-loopback address
     * of the host and caches it. A consumer then rewrites a loopback provider address to it, which would send the
     * benchmark's traffic off loopback. Where it finds none (a network namespace with loopback only, or every other
     * interface ignored, which is how we kept Dubbo on loopback before) it caches nothing and enumerates the network
     * interfaces again each time it asks, and its provider asks on every request (a filter reads the caller's host):
     * a few hundred microseconds of system calls per call that no production host pays. Before this, the suite's
     * Dubbo rows paid it and showed Dubbo several times slower than it is. Pinning the cached address avoids both.
     * Idempotent; runs when this class loads.
     */
    public static void keepOnLoopback() {
        try {
            Field hostAddress = NetUtils.class.getDeclaredField("HOST_ADDRESS");
            hostAddress.setAccessible(true);
            hostAddress.set(null, "127.0.0.1");
            Field localAddress = NetUtils.class.getDeclaredField("LOCAL_ADDRESS");
            localAddress.setAccessible(true);
            localAddress.set(null, InetAddress.getLoopbackAddress());
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot pin Dubbo's local address to loopback (NetUtils changed?)", e);
        }
        System.setProperty("dubbo.application.qos-enable", "false");
        if (System.getProperty("dubbo.application.logger") == null) {
            System.setProperty("dubbo.application.logger", "slf4j"); // its warnings, not its info, in our logs
        }
    }

    private static boolean tls(String system) {
        return system.equals("dubbo-tls");
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
        if (tls(system)) {
            Certificates certificates = Certificates.ofThisRun();
            SslConfig ssl = new SslConfig();
            ssl.setServerKeyCertChainPath(certificates.providerChain().toString());
            ssl.setServerPrivateKeyPath(certificates.providerKey().toString());
            dubbo.ssl(ssl);
            protocol.setSslEnabled(true);
        }
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
        if (tls(system)) {
            Certificates certificates = Certificates.ofThisRun();
            SslConfig ssl = new SslConfig();
            ssl.setClientTrustCertCollectionPath(certificates.ca().toString());
            ssl.setClientKeyCertChainPath(certificates.consumerChain().toString());
            ssl.setClientPrivateKeyPath(certificates.consumerKey().toString());
            dubbo.ssl(ssl);
        }
        dubbo.application(application("bench-consumer")).reference(reference).start();
        UserService service = reference.get();
        return Consumer.of(service, dubbo::destroy);
    }
}
