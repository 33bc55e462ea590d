package io.ferry.rpc.config.internal;

import io.ferry.rpc.PeerIdentity;
import io.ferry.rpc.testkit.TestPki;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What a {@code callers} rule lets in: identities read from real certificates of a test CA. */
class CallerRuleTest {
    @TempDir
    Path dir;
    private PeerIdentity orders;

    @BeforeEach
    void certificate() throws Exception {
        TestPki pki = TestPki.create(dir, "ferry");
        orders = identity(pki.issue("orders", b -> {
            try {
                return b.addSanDnsName("orders.prod.example.com").addSanIpAddress("10.0.0.7")
                        .addSanUriName("spiffe://example.org/ns/prod/sa/orders");
            } catch (java.net.URISyntaxException e) {
                throw new IllegalStateException(e);
            }
        }).certificateChain());
    }

    private static PeerIdentity identity(Path chain) throws Exception {
        try (InputStream in = Files.newInputStream(chain)) {
            return PeerIdentity.of((X509Certificate) CertificateFactory.getInstance("X.509").generateCertificate(in));
        }
    }

    private boolean allows(String rule) {
        return CallerRule.parse(rule, "").allows(orders);
    }

    @Test
    void eachKindOfNameMatchesOnlyWhatTheCertificateSays() {
        assertTrue(allows("cn:orders"));
        assertFalse(allows("cn:order"));
        assertTrue(allows("dns:orders.prod.example.com"));
        assertTrue(allows("dns:*.prod.example.com"));
        assertTrue(allows("dns:ORDERS.prod.example.com"), "DNS names are compared without regard to case");
        assertFalse(allows("dns:*.orders.prod.example.com"));
        assertTrue(allows("uri:spiffe://example.org/ns/prod/sa/orders"));
        assertTrue(allows("uri:spiffe://example.org/ns/prod/*"));
        assertFalse(allows("uri:spiffe://example.org/ns/test/*"));
        assertTrue(allows("ip:10.0.0.7"));
        assertFalse(allows("ip:10.0.0.8"));
        assertTrue(allows("*"));
    }

    @Test
    void anIpRuleMatchesTheAddressHoweverEitherSideSpellsIt() throws Exception {
        TestPki pki = TestPki.create(dir, "v6");
        PeerIdentity v6 = identity(pki.issue("v6", b -> b.addSanIpAddress("::1").addSanIpAddress("2001:db8::7"))
                .certificateChain());
        assertTrue(CallerRule.parse("ip:::1", "").allows(v6), v6.ipAddresses().toString());
        assertTrue(CallerRule.parse("ip:2001:DB8:0:0::7", "").allows(v6));
        assertTrue(CallerRule.parse("ip:0:0:0:0:0:0:0:1", "").allows(v6));
        assertFalse(CallerRule.parse("ip:2001:db8::8", "").allows(v6));
        assertTrue(CallerRule.parse("ip:::ffff:10.0.0.7", "").allows(orders), "an IPv4-mapped IPv6 address is IPv4");
    }

    @Test
    void anIpRuleThatIsNoAddressIsRefusedAtExportAndNeverLookedUp() {
        for (String notAnAddress : new String[] {"ip:orders.example.com", "ip:10.0.0.256", "ip:10.0.7",
                "ip:fe80::1%eth0", "ip:2001:db8::7::1", "ip:localhost", "ip:.:1", "ip:010.0.0.7"}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> CallerRule.parse(notAnAddress, "ferry.xml:3"), notAnAddress);
            assertEquals("ferry.xml:3: callers: '" + notAnAddress + "' is not an IP address (expected: ip:10.0.0.7 or"
                    + " ip:2001:db8::7)", e.getMessage());
        }
    }

    @Test
    void anyPatternOfTheListLetsTheCallerIn() {
        assertTrue(allows("cn:billing, uri:spiffe://example.org/ns/prod/sa/orders"));
        assertFalse(allows("cn:billing, dns:billing.prod.example.com"));
    }

    @Test
    void aCallerWithoutACertificateMatchesNothingNotEvenTheWildcard() {
        assertFalse(CallerRule.parse("*", "").allows(null));
    }

    @Test
    void aCommonNameHiddenInAnotherAttributeIsNoCommonName() throws Exception {
        TestPki pki = TestPki.create(dir, "names");
        PeerIdentity smuggled = identity(pki.issue("smuggled", b -> b.subject("OU=x\\,CN=admin,CN=orders"))
                .certificateChain());
        assertEquals("orders", smuggled.commonName(), smuggled.subject());
        assertFalse(CallerRule.parse("cn:admin", "").allows(smuggled));

        PeerIdentity twice = identity(pki.issue("twice", b -> b.subject("CN=admin,CN=orders")).certificateChain());
        assertEquals("", twice.commonName(), "two common names: neither is the name");
        assertFalse(CallerRule.parse("cn:admin, cn:orders", "").allows(twice));
    }

    @Test
    void whatIsNotAPatternIsRefusedNamingWhereAndTheEntry() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> CallerRule.parse("cn:orders, orders-app", "ferry.xml:12"));
        assertEquals("ferry.xml:12: callers: 'orders-app' (expected: a comma-separated list of cn:NAME, dns:NAME, "
                + "uri:URI, ip:ADDRESS or *)", e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> CallerRule.parse("application:orders", ""),
                "remote.application is no identity");
        assertThrows(IllegalArgumentException.class, () -> CallerRule.parse("cn:", ""));
    }
}
