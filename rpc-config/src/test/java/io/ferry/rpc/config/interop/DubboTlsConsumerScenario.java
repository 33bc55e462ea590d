package io.ferry.rpc.config.interop;

import io.ferry.rpc.config.fixtures.Caller;
import org.apache.dubbo.config.ReferenceConfig;
import org.apache.dubbo.config.SslConfig;
import org.apache.dubbo.config.bootstrap.DubboBootstrap;

/**
 * A stock Dubbo 3.3.6 consumer with TLS, in a JVM of its own: it needs
 * {@code -Dio.netty.handler.ssl.defaultEndpointVerificationAlgorithm=NONE} (Dubbo never tells Netty the host it
 * connects to, so with the Netty it ships every handshake fails host verification), a JVM-wide switch the test JVM
 * must not take. Arguments: port, CA file, then client certificate chain and client key (left out: a consumer
 * configured with a trust file alone, as a Dubbo user would for one-way TLS). Prints {@code OK <answer>} or
 * {@code FAILED <exception>} and exits.
 */
public final class DubboTlsConsumerScenario {
    private DubboTlsConsumerScenario() {
    }

    public static void main(String[] args) {
        DubboLoopback.ignoreOtherInterfaces();
        SslConfig ssl = new SslConfig();
        ssl.setClientTrustCertCollectionPath(args[1]);
        if (args.length > 2) {
            // without a key pair of its own a Dubbo consumer silently speaks plain text: give it one
            ssl.setClientKeyCertChainPath(args[2]);
            ssl.setClientPrivateKeyPath(args[3]);
        }
        ReferenceConfig<Caller> reference = DubboLoopback.reference(Caller.class);
        reference.setUrl("dubbo://127.0.0.1:" + args[0] + "?serialization=hessian2");
        reference.setCheck(false);
        DubboBootstrap dubbo = DubboBootstrap.newInstance();
        String outcome;
        try {
            dubbo.application(DubboLoopback.application("dubbo-tls-consumer")).ssl(ssl).reference(reference).start();
            outcome = "OK " + reference.get().who();
        } catch (RuntimeException e) {
            outcome = "FAILED " + e;
        }
        System.out.println(outcome);
        System.out.flush();
        Runtime.getRuntime().halt(0); // Dubbo's non-daemon threads would keep the JVM up
    }
}
