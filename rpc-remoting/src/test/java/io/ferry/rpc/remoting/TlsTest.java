package io.ferry.rpc.remoting;

import io.ferry.rpc.PeerIdentity;
import io.ferry.rpc.Result;
import io.ferry.rpc.RpcContext;
import io.ferry.rpc.RpcException;
import io.ferry.rpc.testkit.StandardErrorLines;
import io.ferry.rpc.testkit.TestPki;
import io.ferry.rpc.testkit.TestPki.KeyPairFiles;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import static io.ferry.rpc.remoting.ClientExtension.call;
import static io.ferry.rpc.remoting.ClientExtension.hello;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * TLS between a consumer and a provider, real sockets on 127.0.0.1 and certificates of a test CA: one-way and
 * mutual, each way a handshake can fail and what the consumer is told, and certificates replaced while serving.
 */
class TlsTest {
    private static final Duration CONNECT = Duration.ofSeconds(3);

    @RegisterExtension
    final ClientExtension clients = new ClientExtension();
    @TempDir
    Path dir;
    private TestPki pki;
    private KeyPairFiles provider;
    private final List<Server> servers = new ArrayList<>();

    @BeforeEach
    void certificates() {
        pki = TestPki.create(dir, "ferry");
        provider = pki.server("provider");
    }

    @AfterEach
    void stop() {
        servers.forEach(Server::close);
    }

    /** A provider whose answer says who called, as its certificate proved (or "anonymous"). */
    private Server start(TlsOptions tls) {
        Server server = Server.start(ServerOptions.builder().host("127.0.0.1").port(0).tls(tls).build());
        server.export(ServiceExport.of(Greeter.class, invocation -> CompletableFuture.completedFuture(Result.of(
                "hello " + invocation.arguments()[0] + " from " + RpcContext.current().peerIdentity()
                        .map(PeerIdentity::commonName).orElse("anonymous")))));
        servers.add(server);
        return server;
    }

    private TlsOptions.Builder serverTls(KeyPairFiles pair) {
        return TlsOptions.builder().serverKeyCertChain(pair.certificateChain().toString(),
                pair.privateKey().toString());
    }

    private TlsOptions.Builder clientTrusting(Path ca) {
        return TlsOptions.builder().clientTrustCertCollection(ca.toString());
    }

    private static ClientOptions client(TlsOptions tls) {
        return ClientOptions.builder().connectTimeout(CONNECT).tls(tls).build();
    }

    /** The failure of a call through an endpoint that fails at once when it has no connection. */
    private RpcException failedCall(Server server, ClientOptions options) throws Exception {
        ProviderEndpoint endpoint = clients.member(server.address(), options, Duration.ZERO);
        ExecutionException e = assertThrows(ExecutionException.class,
                () -> endpoint.invoke(hello("a", 5000)).get(10, TimeUnit.SECONDS));
        assertTrue(e.getCause() instanceof RpcException, e.getCause().toString());
        return (RpcException) e.getCause();
    }

    @Test
    void oneWayTlsCarriesCallsAndGivesTheProviderNoIdentity() throws Exception {
        Server server = start(serverTls(provider).build());
        ProviderEndpoint endpoint = clients.direct(server.address(), client(clientTrusting(pki.caCertificate())
                .build()));
        assertEquals("hello a from anonymous", call(endpoint, "a"));
    }

    @Test
    void mutualTlsTellsTheProviderWhoCalls() throws Exception {
        Server server = start(serverTls(provider).serverTrustCertCollection(pki.caCertificate().toString()).build());
        KeyPairFiles orders = pki.client("orders");
        ProviderEndpoint endpoint = clients.direct(server.address(), client(clientTrusting(pki.caCertificate())
                .clientKeyCertChain(orders.certificateChain().toString(), orders.privateKey().toString()).build()));
        assertEquals("hello a from orders", call(endpoint, "a"));
    }

    @ParameterizedTest
    @EnumSource(SslProvider.class)
    void eachEngineServesMutualTlsOnBothSides(SslProvider engine) throws Exception {
        assumeEngine(engine);
        Server server = start(serverTls(provider).serverTrustCertCollection(pki.caCertificate().toString())
                .provider(engine).build());
        KeyPairFiles orders = pki.client("orders");
        ProviderEndpoint endpoint = clients.direct(server.address(), client(clientTrusting(pki.caCertificate())
                .clientKeyCertChain(orders.certificateChain().toString(), orders.privateKey().toString())
                .provider(engine).build()));
        assertEquals("hello a from orders", call(endpoint, "a"));
    }

    @ParameterizedTest
    @EnumSource(SslProvider.class)
    void eachEngineRefusesAConsumersRenegotiation(SslProvider engine) throws Exception {
        assumeEngine(engine);
        Server server = start(serverTls(provider).provider(engine).build());
        javax.net.ssl.SSLContext context = javax.net.ssl.SSLContext.getInstance("TLSv1.2");
        context.init(null, new javax.net.ssl.TrustManager[] {new TrustingAll()}, null);
        try (javax.net.ssl.SSLSocket socket = (javax.net.ssl.SSLSocket) context.getSocketFactory()
                .createSocket("127.0.0.1", server.port())) {
            socket.setSoTimeout(10_000);
            socket.setEnabledProtocols(new String[] {"TLSv1.2"});
            socket.startHandshake();
            socket.startHandshake(); // a second handshake on the same connection: a renegotiation
            // a heartbeat the provider would echo, were the connection still up: the refusal comes instead
            byte[] heartbeat = {(byte) 0xda, (byte) 0xbb, (byte) 0xe2, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 1, 'N'};
            assertThrows(java.io.IOException.class, () -> {
                socket.getOutputStream().write(heartbeat);
                socket.getOutputStream().flush();
                if (socket.getInputStream().read() < 0) {
                    throw new java.io.EOFException("closed");
                }
            });
        }
    }

    @Test
    void theProviderSeesTheSubjectAndTheAlternativeNamesOfTheCallersCertificate() throws Exception {
        Server server = Server.start(ServerOptions.builder().host("127.0.0.1").port(0)
                .tls(serverTls(provider).serverTrustCertCollection(pki.caCertificate().toString()).build()).build());
        servers.add(server);
        server.export(ServiceExport.of(Greeter.class, invocation -> CompletableFuture.completedFuture(
                Result.of(RpcContext.current().peerIdentity().orElseThrow().toString()))));
        KeyPairFiles billing = pki.client("billing");
        ProviderEndpoint endpoint = clients.direct(server.address(), client(clientTrusting(pki.caCertificate())
                .clientKeyCertChain(billing.certificateChain().toString(), billing.privateKey().toString()).build()));
        assertEquals("PeerIdentity{CN=billing,O=Ferry tests, uri=[spiffe://ferry.test/billing]}", call(endpoint, "a"));
    }

    @Test
    void aConsumerWithoutACertificateIsRefusedByAProviderThatRequiresOne() throws Exception {
        Server server = start(serverTls(provider).serverTrustCertCollection(pki.caCertificate().toString()).build());
        RpcException e = failedCall(server, client(clientTrusting(pki.caCertificate()).build()));
        assertTrue(e.isNotExecuted(), e.toString());
        assertTrue(e.getMessage().contains(server.address().toString()), e.getMessage());
        assertTrue(e.getMessage().contains("the provider refused the TLS handshake"), e.getMessage());
        assertTrue(e.getMessage().contains("certificate"), e.getMessage());
    }

    @Test
    void aConsumerCertificateFromAnotherCaIsRefusedAndTheConsumerIsToldSo() throws Exception {
        Server server = start(serverTls(provider).serverTrustCertCollection(pki.caCertificate().toString()).build());
        KeyPairFiles stranger = TestPki.create(dir, "other").client("stranger");
        RpcException e = failedCall(server, client(clientTrusting(pki.caCertificate()).clientKeyCertChain(
                stranger.certificateChain().toString(), stranger.privateKey().toString()).build()));
        assertTrue(e.isNotExecuted(), e.toString());
        assertTrue(e.getMessage().contains(server.address().toString()), e.getMessage());
        assertTrue(e.getMessage().contains("refused this side's certificate"), e.getMessage());
    }

    @Test
    void anExpiredConsumerCertificateIsRefusedAndTheConsumerIsToldSo() throws Exception {
        Server server = start(serverTls(provider).serverTrustCertCollection(pki.caCertificate().toString()).build());
        Instant now = Instant.now();
        KeyPairFiles expired = pki.issue("lapsed", b -> b.addExtendedKeyUsageClientAuth()
                .notBefore(now.minus(Duration.ofDays(2))).notAfter(now.minus(Duration.ofDays(1))));
        RpcException e = failedCall(server, client(clientTrusting(pki.caCertificate()).clientKeyCertChain(
                expired.certificateChain().toString(), expired.privateKey().toString()).build()));
        assertTrue(e.isNotExecuted(), e.toString());
        assertTrue(e.getMessage().contains(server.address().toString()), e.getMessage());
        assertTrue(e.getMessage().contains("refused this side's certificate"), e.getMessage());
    }

    @Test
    void clientAuthWithoutAServerTrustCollectionIsRefusedAtStart() {
        TlsOptions anyPublicCa = serverTls(provider).clientAuth(ClientAuth.REQUIRE).build();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> start(anyPublicCa));
        assertTrue(e.getMessage().startsWith("clientAuth: require (expected: server-trust-cert-collection-path"),
                e.getMessage());
    }

    @Test
    void aProviderCertificateFromAnotherCaIsRefusedNamingWhy() throws Exception {
        Server server = start(serverTls(provider).build());
        TestPki other = TestPki.create(dir, "other");
        RpcException e = failedCall(server, client(clientTrusting(other.caCertificate()).build()));
        assertTrue(e.isNotExecuted(), e.toString());
        assertTrue(e.getMessage().contains("TLS handshake with " + server.address()), e.getMessage());
        assertTrue(e.getMessage().contains("not signed by a trusted CA"), e.getMessage());
    }

    @Test
    void aProviderCertificateForAnotherHostIsRefusedNamingWhy() throws Exception {
        KeyPairFiles elsewhere = pki.issue("elsewhere", b -> b.addSanDnsName("wrong.example"));
        Server server = start(serverTls(elsewhere).build());
        RpcException e = failedCall(server, client(clientTrusting(pki.caCertificate()).build()));
        assertTrue(e.isNotExecuted(), e.toString());
        assertTrue(e.getMessage().contains("TLS handshake with " + server.address()), e.getMessage());
        assertTrue(e.getMessage().contains("does not name the address"), e.getMessage());
    }

    @Test
    void hostVerificationIsOffOnlyWhenAskedForByItsLoudName() throws Exception {
        KeyPairFiles elsewhere = pki.issue("elsewhere", b -> b.addSanDnsName("wrong.example"));
        Server server = start(serverTls(elsewhere).build());
        ProviderEndpoint endpoint = clients.direct(server.address(), client(clientTrusting(pki.caCertificate())
                .insecureSkipHostVerification().build()));
        assertEquals("hello a from anonymous", call(endpoint, "a"));
    }

    @Test
    void anExpiredProviderCertificateIsRefusedNamingWhy() throws Exception {
        Instant now = Instant.now();
        KeyPairFiles expired = pki.issue("expired", b -> b.addSanIpAddress("127.0.0.1")
                .notBefore(now.minus(Duration.ofDays(2))).notAfter(now.minus(Duration.ofDays(1))));
        Server server = start(serverTls(expired).build());
        RpcException e = failedCall(server, client(clientTrusting(pki.caCertificate()).build()));
        assertTrue(e.isNotExecuted(), e.toString());
        assertTrue(e.getMessage().contains("TLS handshake with " + server.address()), e.getMessage());
        assertTrue(e.getMessage().contains("validity"), e.getMessage());
    }

    @Test
    void aHandshakeThatNeverAnswersFailsWithinTheConnectTimeoutNotTheHandshakeTimeout() throws Exception {
        try (java.net.ServerSocket silent = new java.net.ServerSocket(0, 50, java.net.InetAddress.getLoopbackAddress())) {
            ClientOptions impatient = ClientOptions.builder().connectTimeout(Duration.ofMillis(300))
                    .tls(clientTrusting(pki.caCertificate()).handshakeTimeout(Duration.ofSeconds(60)).build()).build();
            ProviderEndpoint endpoint = clients.member(new java.net.InetSocketAddress("127.0.0.1",
                    silent.getLocalPort()), impatient, Duration.ZERO);
            // the call's own timeout is far longer: only the connect budget can end it this soon
            ExecutionException e = assertThrows(ExecutionException.class,
                    () -> endpoint.invoke(hello("a", 60_000)).get(20, TimeUnit.SECONDS));
            assertTrue(e.getCause().getMessage().contains("TLS handshake with"), e.getCause().getMessage());
            assertTrue(e.getCause().getMessage().contains("timed out"), e.getCause().getMessage());
        }
    }

    @Test
    void aTlsConsumerAgainstAPlainPortFailsWithinItsConnectTimeout() throws Exception {
        Server plain = start(null);
        RpcException e = failedCall(plain, client(clientTrusting(pki.caCertificate()).build()));
        assertTrue(e.isNotExecuted(), e.toString());
        assertTrue(e.getMessage().contains("TLS handshake with " + plain.address()), e.getMessage());
    }

    @Test
    void aPlainConsumerAgainstATlsPortIsToldTheProviderSpeaksTlsOnly() throws Exception {
        Server server = start(serverTls(provider).build());
        RpcException e = failedCall(server, client(null));
        assertTrue(e.isNotExecuted(), e.toString());
        assertTrue(e.getMessage().contains("speaks TLS only"), e.getMessage());
    }

    @Test
    void aReplacedCertificateServesNewHandshakesAndOpenConnectionsGoOn() throws Exception {
        KeyPairFiles first = pki.issue("served", b -> b.addSanIpAddress("127.0.0.1").addSanDnsName("first.test"));
        Server server = start(serverTls(first).reloadInterval(Duration.ofMillis(100)).build());
        TlsOptions trusting = clientTrusting(pki.caCertificate()).build();
        ProviderEndpoint open = clients.direct(server.address(), client(trusting));
        assertEquals("hello a from anonymous", call(open, "a"));
        List<String> consumerEnds = consumerEnds(server);

        // the same files, a new certificate: connections made from now on must see it
        pki.issue("served", b -> b.addSanIpAddress("127.0.0.1").addSanDnsName("second.test"));
        await().atMost(Duration.ofSeconds(10)).until(() -> servedCertificateNames(server).contains("second.test"));
        assertEquals("hello b from anonymous", call(open, "b"), "the open connection keeps working");
        assertTrue(consumerEnds(server).containsAll(consumerEnds), "on the same connection, not a new one");
    }

    @Test
    void aReplacedConsumerCertificateIsWhoNewConnectionsAreAndOpenOnesStayWhoTheyWere() throws Exception {
        TlsOptions mutual = serverTls(provider).serverTrustCertCollection(pki.caCertificate().toString()).build();
        Server first = start(mutual);
        KeyPairFiles caller = pki.issue("caller", b -> b.addExtendedKeyUsageClientAuth());
        ClientOptions consumer = client(clientTrusting(pki.caCertificate()).clientKeyCertChain(
                caller.certificateChain().toString(), caller.privateKey().toString())
                .reloadInterval(Duration.ofMillis(100)).build());
        ProviderEndpoint open = clients.direct(first.address(), consumer);
        assertEquals("hello a from caller", call(open, "a"));

        try (StandardErrorLines log = new StandardErrorLines()) {
            pki.issue("caller", b -> b.subject("CN=renewed, O=Ferry tests").addExtendedKeyUsageClientAuth());
            await().atMost(Duration.ofSeconds(10)).until(() -> !log.containing(
                    "consumer TLS: reloaded [client-key-cert-chain-path " + caller.certificateChain()).isEmpty());
        }
        Server second = start(mutual);
        assertEquals("hello b from renewed", call(clients.direct(second.address(), consumer), "b"),
                "a new connection of the same client shows the new certificate");
        assertEquals("hello c from caller", call(open, "c"), "the open connection keeps the identity it proved");
    }

    /** The consumer-side addresses of the provider's connections. */
    private static List<String> consumerEnds(Server server) {
        return server.connectionView().connections().stream().map(ConnectionInfo::remote).toList();
    }

    @Test
    void aBrokenReplacementIsRefusedAndTheCertificateInUseStays() throws Exception {
        Server server = start(serverTls(provider).reloadInterval(Duration.ofMillis(100)).build());
        try (StandardErrorLines log = new StandardErrorLines()) {
            pki.write(provider.certificateChain().getFileName().toString(), "not a certificate");
            await().atMost(Duration.ofSeconds(10)).until(() -> log.containing("refused the changed").stream()
                    .anyMatch(line -> line.contains(provider.certificateChain().toString())));
        }
        ProviderEndpoint endpoint = clients.direct(server.address(), client(clientTrusting(pki.caCertificate())
                .build()));
        assertEquals("hello a from anonymous", call(endpoint, "a"));
    }

    @Test
    void aKeyThatIsNotTheCertificatesIsRefusedAtStartNamingTheFile() {
        KeyPairFiles other = pki.server("other");
        TlsOptions mismatched = TlsOptions.builder().serverKeyCertChain(provider.certificateChain().toString(),
                other.privateKey().toString()).build();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> start(mismatched));
        assertTrue(e.getMessage().contains("server-private-key-path " + other.privateKey()), e.getMessage());
    }

    @Test
    void aMissingFileIsRefusedAtStartNamingTheOption() {
        TlsOptions missing = TlsOptions.builder().serverKeyCertChain(dir.resolve("nope.pem").toString(),
                provider.privateKey().toString()).build();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> start(missing));
        assertTrue(e.getMessage().startsWith("server-key-cert-chain-path: "), e.getMessage());
    }

    @Test
    void encryptedKeysServeWithTheirPasswordsOnBothSidesAndAWrongOneFailsAtStartNamingTheFile() throws Exception {
        Path serverKey = pki.encryptedKey(provider, "server-secret", "provider-key-encrypted.pem");
        Server server = start(TlsOptions.builder().serverKeyCertChain(provider.certificateChain().toString(),
                serverKey.toString()).option(TransportOptions.SERVER_KEY_PASSWORD, "server-secret")
                .serverTrustCertCollection(pki.caCertificate().toString()).build());
        KeyPairFiles orders = pki.client("orders");
        Path clientKey = pki.encryptedKey(orders, "client-secret", "orders-key-encrypted.pem");
        ProviderEndpoint endpoint = clients.direct(server.address(), client(clientTrusting(pki.caCertificate())
                .clientKeyCertChain(orders.certificateChain().toString(), clientKey.toString())
                .option(TransportOptions.CLIENT_KEY_PASSWORD, "client-secret").build()));
        assertEquals("hello a from orders", call(endpoint, "a"));

        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> start(TlsOptions.builder()
                .serverKeyCertChain(provider.certificateChain().toString(), serverKey.toString())
                .option(TransportOptions.SERVER_KEY_PASSWORD, "hunter2").build()));
        assertTrue(e.getMessage().contains(serverKey + " (an encrypted key: is server-key-password its password?)"),
                e.getMessage());
        assertFalse(e.getMessage().contains("hunter2"), "never the password: " + e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> start(TlsOptions.builder().serverKeyCertChain(
                provider.certificateChain().toString(), serverKey.toString()).build()));
        assertTrue(e.getMessage().contains("(an encrypted key, and server-key-password is not set)"),
                e.getMessage());
    }

    @Test
    void keyPasswordsNeverAppearInOptionsText() {
        TlsOptions tls = serverTls(provider).option(TransportOptions.SERVER_KEY_PASSWORD, "s3cret").build();
        assertFalse(tls.toString().contains("s3cret"), tls.toString());
        assertFalse(ServerOptions.builder().tls(tls).build().toString().contains("s3cret"));
    }

    /** OpenSSL's engine where the test class path has BoringSSL for this platform (linux-x86_64). */
    private static void assumeEngine(SslProvider engine) {
        assumeTrue(engine == SslProvider.JDK || io.netty.handler.ssl.OpenSsl.isAvailable(),
                "no netty-tcnative-boringssl-static for this platform");
    }

    /** The DNS names of the certificate a new TLS connection to {@code server} is shown. */
    private List<String> servedCertificateNames(Server server) throws Exception {
        javax.net.ssl.SSLContext context = javax.net.ssl.SSLContext.getInstance("TLS");
        context.init(null, new javax.net.ssl.TrustManager[] {new TrustingAll()}, null);
        try (javax.net.ssl.SSLSocket socket = (javax.net.ssl.SSLSocket) context.getSocketFactory()
                .createSocket("127.0.0.1", server.port())) {
            socket.startHandshake();
            java.security.cert.X509Certificate leaf = (java.security.cert.X509Certificate)
                    socket.getSession().getPeerCertificates()[0];
            return PeerIdentity.of(leaf).dnsNames();
        }
    }

    /** Only for reading what a provider presents: trusts anything. */
    private static final class TrustingAll implements javax.net.ssl.X509TrustManager {
        @Override
        public void checkClientTrusted(java.security.cert.X509Certificate[] chain, String authType) {
        }

        @Override
        public void checkServerTrusted(java.security.cert.X509Certificate[] chain, String authType) {
        }

        @Override
        public java.security.cert.X509Certificate[] getAcceptedIssuers() {
            return new java.security.cert.X509Certificate[0];
        }
    }
}
