package io.ferry.rpc.config;

import io.ferry.rpc.RpcException;
import io.ferry.rpc.config.fixtures.Caller;
import io.ferry.rpc.config.fixtures.CallerImpl;
import io.ferry.rpc.config.fixtures.FerryFixture;
import io.ferry.rpc.config.fixtures.ZooKeeperFixture;
import io.ferry.rpc.config.internal.files.Sources;
import io.ferry.rpc.config.option.Options;
import io.ferry.rpc.remoting.ClientAuth;
import io.ferry.rpc.testkit.TestPki;
import io.ferry.rpc.testkit.TestPki.KeyPairFiles;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * TLS configured from each front end (builders, ferry.xml's {@code <ssl>}, properties, {@code -D}) and used for
 * real calls: the protocol's {@code ssl-enabled}, a reference's, and the caller's identity on the provider.
 */
class TlsConfigTest {
    private static final ClassLoader NO_DEFAULTS = new URLClassLoader(new URL[0], null);

    @RegisterExtension
    final FerryFixture ferries = new FerryFixture();
    @RegisterExtension
    final ZooKeeperFixture zk = new ZooKeeperFixture();
    private TestPki pki;
    private KeyPairFiles provider;
    private KeyPairFiles consumer;

    @BeforeEach
    void certificates() {
        pki = TestPki.create(ferries.dir(), "ferry");
        provider = pki.server("provider");
        consumer = pki.client("orders");
    }

    private SslConfig.Builder providerSsl() {
        return SslConfig.builder().serverKeyCertChain(provider.certificateChain().toString(),
                provider.privateKey().toString());
    }

    private SslConfig.Builder consumerSsl() {
        return SslConfig.builder().clientTrustCertCollection(pki.caCertificate().toString());
    }

    private Ferry tlsProvider(SslConfig ssl) {
        Ferry ferry = ferries.track(Ferry.builder().ssl(ssl)
                .protocol(ProtocolConfig.builder().host("127.0.0.1").port(0).sslEnabled(true).build()).build());
        ferry.export(ServiceConfig.builder(Caller.class, new CallerImpl()).build());
        return ferry;
    }

    private Caller reference(Ferry consumerFerry, int port, boolean ssl) {
        return consumerFerry.reference(ReferenceConfig.builder(Caller.class).url("dubbo://127.0.0.1:" + port)
                .sslEnabled(ssl).build());
    }

    @Test
    void buildersTurnOnMutualTlsAndTheProviderKnowsTheCaller() {
        Ferry serving = tlsProvider(providerSsl().serverTrustCertCollection(pki.caCertificate().toString()).build());
        Ferry calling = ferries.track(Ferry.builder().ssl(consumerSsl().clientKeyCertChain(
                consumer.certificateChain().toString(), consumer.privateKey().toString()).build()).build());
        assertEquals("orders", reference(calling, serving.port(), true).who());
    }

    @Test
    void aProviderRegistersThatItSpeaksTlsAndConsumersThatFindItUseTls() throws Exception {
        Ferry serving = ferries.track(Ferry.builder().registry(zk.registry("tls-provider")).ssl(providerSsl().build())
                .protocol(ProtocolConfig.builder().host("127.0.0.1").port(0).sslEnabled(true).build()).build());
        serving.export(ServiceConfig.builder(Caller.class, new CallerImpl()).build());
        assertEquals("true", zk.registeredProviders(Caller.class).get(0).parameter("ssl-enabled"));

        // no ssl-enabled of its own: the registry says this provider speaks TLS only
        Ferry calling = ferries.track(Ferry.builder().registry(zk.registry("tls-consumer")).ssl(consumerSsl().build())
                .build());
        assertEquals("anonymous", calling.reference(ReferenceConfig.builder(Caller.class).build()).who());
    }

    @Test
    void aDirectUrlCanSayThePortSpeaksTls() {
        Ferry serving = tlsProvider(providerSsl().build());
        Ferry calling = ferries.track(Ferry.builder().ssl(consumerSsl().build()).build());
        assertEquals("anonymous", calling.reference(ReferenceConfig.builder(Caller.class)
                .url("dubbo://127.0.0.1:" + serving.port() + "?ssl-enabled=true").build()).who());
    }

    @Test
    void aReferenceWithoutTlsToATlsProviderFailsSayingWhy() {
        Ferry serving = tlsProvider(providerSsl().build());
        Ferry calling = ferries.track(Ferry.builder().build());
        RpcException e = assertThrows(RpcException.class, () -> reference(calling, serving.port(), false).who());
        assertTrue(e.getMessage().contains("speaks TLS only"), e.getMessage());
    }

    @Test
    void sslEnabledWithoutAServerCertificateFailsAtStartNamingWhatIsMissing() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Ferry.builder()
                .protocol(ProtocolConfig.builder().port(0).sslEnabled(true).build()).build());
        assertTrue(e.getMessage().contains("ssl-enabled: true on the protocol"), e.getMessage());
        assertTrue(e.getMessage().contains("server-key-cert-chain-path"), e.getMessage());
    }

    @Test
    void ferryXmlTakesDubbosSslElementAndProtocolAttribute() throws Exception {
        Path xml = ferries.file("provider.xml", """
                <?xml version="1.0" encoding="UTF-8"?>
                <ferry:config xmlns:ferry="http://ferry.io/schema/ferry">
                  <ferry:ssl server-key-cert-chain-path="%s" server-private-key-path="%s"
                             server-trust-cert-collection-path="%s" clientAuth="optional" sslHandshakeTimeout="3s"/>
                  <ferry:protocol name="dubbo" host="127.0.0.1" port="0" ssl-enabled="true"/>
                  <ferry:service interface="%s" class="%s"/>
                </ferry:config>
                """.formatted(provider.certificateChain(), provider.privateKey(), pki.caCertificate(),
                Caller.class.getName(), CallerImpl.class.getName()));
        Ferry serving = ferries.track(Ferry.fromLoaded(io.ferry.rpc.config.internal.files.FileBootstrap.fromXml(xml,
                Map.of()), Sources.of(Map.of(), NO_DEFAULTS)));
        assertEquals(ClientAuth.OPTIONAL, serving.protocol().serverOptions().tls().clientAuth());
        Ferry anonymous = ferries.track(Ferry.builder().ssl(consumerSsl().build()).build());
        assertEquals("anonymous", reference(anonymous, serving.port(), true).who(), "optional: no certificate is fine");
    }

    @Test
    void propertiesAndSystemPropertiesTakeTheSameNames() throws Exception {
        Path properties = ferries.file("consumer.properties",
                "ferry.ssl.client-trust-cert-collection-path=" + dir("nowhere.pem"),
                "ferry.consumer.ssl-enabled=true");
        Ferry serving = tlsProvider(providerSsl().build());
        // -D wins over the file: the real trust collection replaces the missing one
        Map<String, String> system = Map.of("ferry.ssl.client-trust-cert-collection-path",
                pki.caCertificate().toString());
        Ferry calling = ferries.track(Ferry.fromLoaded(io.ferry.rpc.config.internal.files.FileBootstrap
                .fromProperties(properties, Map.of()), Sources.of(system, NO_DEFAULTS)));
        assertEquals("anonymous", calling.reference(ReferenceConfig.builder(Caller.class)
                .url("dubbo://127.0.0.1:" + serving.port()).build()).who(), "the consumer's ssl-enabled applies");
    }

    @Test
    void aWrongValueIsRefusedNamingTheOptionAndWhere() throws Exception {
        Path properties = ferries.file("bad.properties", "ferry.ssl.clientAuth=sometimes");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> io.ferry.rpc.config.internal.files.FileBootstrap.fromProperties(properties, Map.of()));
        assertTrue(e.getMessage().contains("bad.properties:1"), e.getMessage());
        assertTrue(e.getMessage().contains("one of none, optional, require"), e.getMessage());
    }

    @Test
    void keyPasswordsNeverAppearInConfigText() {
        SslConfig ssl = providerSsl().set(Options.SERVER_KEY_PASSWORD, "s3cret")
                .set(Options.CLIENT_KEY_PASSWORD, "t0p").build();
        assertFalse(ssl.toString().contains("s3cret") || ssl.toString().contains("t0p"), ssl.toString());
        assertFalse(ssl.tlsOptions().toString().contains("s3cret"), ssl.tlsOptions().toString());
    }

    @Test
    void aServerCertificateWithoutSslEnabledIsRefusedAtExportNotServedInPlainText() {
        Ferry plain = ferries.track(Ferry.builder().ssl(providerSsl().build())
                .protocol(ProtocolConfig.builder().host("127.0.0.1").port(0).build()).build());
        assertNull(plain.protocol().serverOptions().tls());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> plain.export(ServiceConfig.builder(Caller.class, new CallerImpl()).build()));
        assertTrue(e.getMessage().contains("the protocol's ssl-enabled is not"), e.getMessage());
    }

    @Test
    void aConsumerSharingAnSslConfigWithServerFilesServesNothingAndIsFine() {
        Ferry serving = tlsProvider(providerSsl().build());
        Ferry calling = ferries.track(Ferry.builder().ssl(consumerSsl().serverKeyCertChain(
                provider.certificateChain().toString(), provider.privateKey().toString()).build()).build());
        assertEquals("anonymous", reference(calling, serving.port(), true).who());
    }

    private String dir(String name) {
        return ferries.dir().resolve(name).toString();
    }
}
