package io.ferry.rpc.remoting.internal.tls;

import io.ferry.rpc.remoting.TlsOptions;
import io.ferry.rpc.testkit.StandardErrorLines;
import io.ferry.rpc.testkit.TestPki;
import io.ferry.rpc.testkit.TestPki.KeyPairFiles;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What a reload takes and what it refuses, on both sides, read from the log lines an operator sees: files replaced
 * the way a deployment replaces them (a rename), the clock fixed where a certificate's dates matter. That a context
 * taken serves new handshakes while open connections keep theirs is TlsTest's, on real sockets.
 */
class TlsContextTest {
    private static final Clock NOW = Clock.systemUTC();

    @TempDir
    Path dir;
    private TestPki pki;
    private KeyPairFiles served;

    @BeforeEach
    void certificates() {
        pki = TestPki.create(dir, "ferry");
        served = pki.server("served");
    }

    private TlsContext server(Clock clock) {
        return TlsContext.server(TlsOptions.builder().serverKeyCertChain(served.certificateChain().toString(),
                served.privateKey().toString()).build(), clock);
    }

    private static String text(Path file) throws Exception {
        return Files.readString(file);
    }

    @Test
    void aReplacementWhoseKeyIsNotTheCertificatesIsRefusedOnceAndTheNextGoodPairIsTaken() throws Exception {
        TlsContext context = server(NOW);
        KeyPairFiles other = pki.server("other");
        try (StandardErrorLines log = new StandardErrorLines()) {
            pki.write(served.privateKey().getFileName().toString(), text(other.privateKey()));
            assertFalse(context.reloadIfChanged());
            assertFalse(context.reloadIfChanged(), "tried again, as a renewal may still be on its way");
            List<String> refused = log.containing("refused the changed [server-private-key-path "
                    + served.privateKey() + "]");
            assertEquals(1, refused.size(), "said once while it lasts: " + log.containing("TLS"));
            assertTrue(refused.get(0).contains("(expected: the private key of server-key-cert-chain-path "
                    + served.certificateChain()), refused.get(0));
            assertTrue(refused.get(0).contains("still using the files read before"), refused.get(0));

            pki.server("served"); // a new certificate and its own key, both files replaced
            assertTrue(context.reloadIfChanged());
            assertEquals(1, log.containing("provider TLS: reloaded [server-key-cert-chain-path "
                    + served.certificateChain() + ", server-private-key-path " + served.privateKey() + "]").size(),
                    log.containing("TLS").toString());
        }
    }

    @Test
    void aReplacementOutOfItsValidityIsRefusedNamingItsDates() throws Exception {
        TlsContext context = server(NOW);
        Instant now = NOW.instant();
        try (StandardErrorLines log = new StandardErrorLines()) {
            pki.issue("served", b -> b.addSanIpAddress("127.0.0.1").notBefore(now.minus(Duration.ofDays(2)))
                    .notAfter(now.minus(Duration.ofDays(1))));
            assertFalse(context.reloadIfChanged());
            pki.issue("served", b -> b.addSanIpAddress("127.0.0.1").notBefore(now.plus(Duration.ofDays(1)))
                    .notAfter(now.plus(Duration.ofDays(2))));
            assertFalse(context.reloadIfChanged());
            // each refusal said, in turn (inOrder fails naming the line it misses)
            log.inOrder("server-key-cert-chain-path " + served.certificateChain() + ": expired on",
                    "server-key-cert-chain-path " + served.certificateChain() + ": not valid before");
        }
    }

    @Test
    void aCertificateInUseThatExpiresWithinAWeekIsWarnedOnceAndOneWithMoreTimeIsNot() {
        Instant now = NOW.instant();
        Instant notAfter = now.plus(Duration.ofDays(30));
        served = pki.issue("lasting", b -> b.addSanIpAddress("127.0.0.1").notBefore(now.minus(Duration.ofDays(1)))
                .notAfter(notAfter));
        try (StandardErrorLines log = new StandardErrorLines()) {
            TlsContext later = server(Clock.fixed(notAfter.minus(Duration.ofDays(8)), ZoneOffset.UTC));
            later.reloadIfChanged();
            assertTrue(log.containing(" expires ").isEmpty(), log.containing("TLS").toString());

            TlsContext soon = server(Clock.fixed(notAfter.minus(Duration.ofDays(3)), ZoneOffset.UTC));
            soon.reloadIfChanged();
            soon.reloadIfChanged();
            List<String> warned = log.containing("provider TLS: server-key-cert-chain-path " + served.certificateChain()
                    + " expires ");
            assertEquals(1, warned.size(), log.containing("TLS").toString());
            assertTrue(warned.get(0).contains("replace it"), warned.get(0));
        }
    }

    @Test
    void aConsumersKeyPairAndTrustFileAreWatchedToo() throws Exception {
        KeyPairFiles orders = pki.client("orders");
        Path trust = pki.write("trusted.pem", text(pki.caCertificate()));
        TlsContext context = TlsContext.client(TlsOptions.builder().clientKeyCertChain(
                orders.certificateChain().toString(), orders.privateKey().toString())
                .clientTrustCertCollection(trust.toString()).build(), NOW);
        try (StandardErrorLines log = new StandardErrorLines()) {
            assertFalse(context.reloadIfChanged(), "nothing changed");
            pki.client("orders");
            assertTrue(context.reloadIfChanged());
            TestPki other = TestPki.create(dir, "other");
            pki.write("trusted.pem", text(pki.caCertificate()) + text(other.caCertificate()));
            assertTrue(context.reloadIfChanged());
            log.inOrder("consumer TLS: reloaded [client-key-cert-chain-path " + orders.certificateChain()
                    + ", client-private-key-path " + orders.privateKey() + "]",
                    "consumer TLS: reloaded [client-trust-cert-collection-path " + trust + "]");

            pki.write("trusted.pem", "not a certificate");
            assertFalse(context.reloadIfChanged());
            assertEquals(1, log.containing("consumer TLS: refused the changed [client-trust-cert-collection-path "
                    + trust + "]").size(), log.containing("TLS").toString());
        }
    }

    @Test
    void aProvidersTrustFileIsWatched() throws Exception {
        Path trust = pki.write("callers.pem", text(pki.caCertificate()));
        TlsContext context = TlsContext.server(TlsOptions.builder().serverKeyCertChain(
                served.certificateChain().toString(), served.privateKey().toString())
                .serverTrustCertCollection(trust.toString()).build(), NOW);
        try (StandardErrorLines log = new StandardErrorLines()) {
            TestPki other = TestPki.create(dir, "other");
            pki.write("callers.pem", text(other.caCertificate()));
            assertTrue(context.reloadIfChanged());
            assertEquals(1, log.containing("provider TLS: reloaded [server-trust-cert-collection-path " + trust
                    + "]").size(), log.containing("TLS").toString());
        }
    }
}
