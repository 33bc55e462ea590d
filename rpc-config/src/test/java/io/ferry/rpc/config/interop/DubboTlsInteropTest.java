package io.ferry.rpc.config.interop;

import io.ferry.rpc.RpcException;
import io.ferry.rpc.config.ApplicationConfig;
import io.ferry.rpc.config.Ferry;
import io.ferry.rpc.config.ProtocolConfig;
import io.ferry.rpc.config.ReferenceConfig;
import io.ferry.rpc.config.ServiceConfig;
import io.ferry.rpc.config.SslConfig;
import io.ferry.rpc.config.fixtures.Caller;
import io.ferry.rpc.config.fixtures.CallerImpl;
import io.ferry.rpc.config.fixtures.FerryFixture;
import io.ferry.rpc.testkit.TestPki;
import io.ferry.rpc.testkit.TestPki.KeyPairFiles;
import org.apache.dubbo.config.bootstrap.DubboBootstrap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * TLS between Ferry and stock Apache Dubbo 3.3.6, both ways, one-way and mutual, certificates of one test CA on
 * 127.0.0.1. A Ferry consumer verifies a Dubbo provider's certificate and host; a Dubbo consumer's certificate is
 * the identity a Ferry provider sees.
 */
class DubboTlsInteropTest {
    @RegisterExtension
    final FerryFixture ferries = new FerryFixture();
    private TestPki pki;
    private KeyPairFiles provider;
    private KeyPairFiles consumer;
    private DubboBootstrap dubbo;

    @BeforeAll
    static void loopback() {
        DubboLoopback.ignoreOtherInterfaces();
    }

    @BeforeEach
    void certificates() {
        pki = TestPki.create(ferries.dir(), "ferry");
        provider = pki.server("provider");
        consumer = pki.client("orders");
    }

    @AfterEach
    void stopDubbo() {
        if (dubbo != null) {
            dubbo.destroy();
        }
    }

    /** A Dubbo provider of {@link Caller} with TLS; with a server trust collection, Dubbo requires client certs. */
    private int dubboProvider(boolean mutual) throws IOException {
        org.apache.dubbo.config.SslConfig ssl = new org.apache.dubbo.config.SslConfig();
        ssl.setServerKeyCertChainPath(provider.certificateChain().toString());
        ssl.setServerPrivateKeyPath(provider.privateKey().toString());
        if (mutual) {
            ssl.setServerTrustCertCollectionPath(pki.caCertificate().toString());
        }
        int port = freePort();
        org.apache.dubbo.config.ProtocolConfig protocol = new org.apache.dubbo.config.ProtocolConfig("dubbo", port);
        protocol.setHost("127.0.0.1");
        protocol.setSslEnabled(true);
        org.apache.dubbo.config.ServiceConfig<Caller> service = new org.apache.dubbo.config.ServiceConfig<>();
        service.setInterface(Caller.class);
        service.setRef(() -> "dubbo");
        service.setRegister(false);
        dubbo = DubboBootstrap.newInstance();
        dubbo.application(DubboLoopback.application("dubbo-tls-provider")).ssl(ssl).protocol(protocol)
                .registry(new org.apache.dubbo.config.RegistryConfig("N/A")).service(service).start();
        return port;
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    private Caller ferryReference(SslConfig ssl, int port) {
        Ferry ferry = ferries.track(Ferry.builder().application(ApplicationConfig.of("ferry-tls-consumer")).ssl(ssl)
                .build());
        return ferry.reference(ReferenceConfig.builder(Caller.class).url("dubbo://127.0.0.1:" + port)
                .sslEnabled(true).retries(0).build());
    }

    @Test
    void aFerryConsumerCallsADubboProviderOverTls() throws Exception {
        int port = dubboProvider(false);
        assertEquals("dubbo", ferryReference(SslConfig.builder().clientTrustCertCollection(
                pki.caCertificate().toString()).build(), port).who());
    }

    @Test
    void aFerryConsumerPresentsItsCertificateToADubboProviderThatRequiresOne() throws Exception {
        int port = dubboProvider(true);
        assertEquals("dubbo", ferryReference(SslConfig.builder().clientTrustCertCollection(
                pki.caCertificate().toString()).clientKeyCertChain(consumer.certificateChain().toString(),
                consumer.privateKey().toString()).build(), port).who());
    }

    @Test
    void aFerryConsumerRefusesADubboProviderWhoseCertificateNamesAnotherHost() throws Exception {
        provider = pki.issue("elsewhere", b -> b.addSanDnsName("wrong.example")); // Dubbo itself would accept it
        int port = dubboProvider(false);
        RpcException e = assertThrows(RpcException.class, () -> ferryReference(SslConfig.builder()
                .clientTrustCertCollection(pki.caCertificate().toString()).build(), port).who());
        assertTrue(e.getMessage().contains("does not name the address"), e.getMessage());
    }

    @Test
    void aDubboConsumerCallsAFerryProviderOverMutualTlsAndIsKnownByItsCertificate() throws Exception {
        assertEquals("OK orders", runDubboConsumer(ferryProvider(true), true));
    }

    @Test
    void aDubboConsumerCallsAFerryProviderOverOneWayTls() throws Exception {
        // the Dubbo consumer still needs a key pair to speak TLS at all; the Ferry provider asks for no certificate
        assertEquals("OK anonymous", runDubboConsumer(ferryProvider(false), true));
    }

    @Test
    void aDubboConsumerWithATrustFileAloneIsToldTheFerryPortSpeaksTlsOnly() throws Exception {
        // stock Dubbo then speaks plain text without a word; Ferry's port answers its first request why, not run
        String outcome = runDubboConsumer(ferryProvider(false), false);
        assertTrue(outcome.startsWith("FAILED ") && outcome.contains("speaks TLS only"), outcome);
    }

    /** A Ferry provider of {@link Caller} whose port speaks TLS only; mutual: it asks consumers for certificates. */
    private int ferryProvider(boolean mutual) {
        // a plain consumer's first bytes come when its JVM gets to the call: on a loaded machine, maybe past 10 s
        SslConfig.Builder ssl = SslConfig.builder().serverKeyCertChain(provider.certificateChain().toString(),
                provider.privateKey().toString()).handshakeTimeout(Duration.ofSeconds(60));
        if (mutual) {
            ssl.serverTrustCertCollection(pki.caCertificate().toString());
        }
        Ferry ferry = ferries.track(Ferry.builder().application(ApplicationConfig.of("ferry-tls-provider"))
                .ssl(ssl.build())
                .protocol(ProtocolConfig.builder().host("127.0.0.1").port(0).sslEnabled(true).build()).build());
        return ferry.export(ServiceConfig.builder(Caller.class, new CallerImpl()).build());
    }

    /** What the Dubbo consumer in its own JVM printed last; withKeyPair: it has a certificate of its own. */
    private String runDubboConsumer(int port, boolean withKeyPair) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> command = new ArrayList<>(List.of(java, "-Xmx256m", "-XX:TieredStopAtLevel=1",
                "-Dio.netty.handler.ssl.defaultEndpointVerificationAlgorithm=NONE",
                "-cp", System.getProperty("java.class.path"), DubboTlsConsumerScenario.class.getName(),
                String.valueOf(port), pki.caCertificate().toString()));
        if (withKeyPair) {
            command.addAll(List.of(consumer.certificateChain().toString(), consumer.privateKey().toString()));
        }
        Process child = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ferries.dir().resolve("dubbo-consumer.log").toFile()).start();
        try {
            boolean finished = child.waitFor(120, TimeUnit.SECONDS); // a loaded 2-core machine starts JVMs slowly
            String out = Files.readString(ferries.dir().resolve("dubbo-consumer.log"),
                    StandardCharsets.UTF_8);
            assertTrue(finished, "the Dubbo consumer did not finish:\n" + out);
            String last = "";
            for (String line : out.split("\n")) {
                if (line.startsWith("OK ") || line.startsWith("FAILED ")) {
                    last = line.strip();
                }
            }
            assertTrue(!last.isEmpty(), out);
            return last;
        } finally {
            child.destroyForcibly();
        }
    }
}
