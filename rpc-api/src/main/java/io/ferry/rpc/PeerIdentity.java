package io.ferry.rpc;

import javax.naming.InvalidNameException;
import javax.naming.ldap.LdapName;
import javax.naming.ldap.Rdn;
import java.security.cert.CertificateParsingException;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;

/**
 * Who a consumer is, as the certificate it proved it holds says: the verified leaf certificate of a mutual-TLS
 * connection, its subject and its subject alternative names. Only a TLS handshake that checked the certificate
 * against the provider's trust collection makes one; nothing a consumer writes into a request does
 * ({@code remote.application} and other attachments are the consumer's say-so, and anyone can spoof them).
 * Immutable.
 */
public final class PeerIdentity {
    // subjectAlternativeNames' general-name tags (RFC 5280): dNSName, uniformResourceIdentifier, iPAddress
    private static final int DNS = 2;
    private static final int URI = 6;
    private static final int IP = 7;

    private final String subject;
    private final String commonName;
    private final List<String> dnsNames;
    private final List<String> uris;
    private final List<String> ipAddresses;

    private PeerIdentity(String subject, List<String> dnsNames, List<String> uris, List<String> ipAddresses) {
        this.subject = subject;
        this.commonName = commonNameOf(subject);
        this.dnsNames = List.copyOf(dnsNames);
        this.uris = List.copyOf(uris);
        this.ipAddresses = List.copyOf(ipAddresses);
    }

    /** The identity a verified leaf certificate states. */
    public static PeerIdentity of(X509Certificate certificate) {
        List<String> dns = new ArrayList<>();
        List<String> uris = new ArrayList<>();
        List<String> ips = new ArrayList<>();
        try {
            Collection<List<?>> names = certificate.getSubjectAlternativeNames();
            if (names != null) {
                for (List<?> name : names) {
                    int tag = (Integer) name.get(0);
                    String value = String.valueOf(name.get(1));
                    switch (tag) {
                        case DNS -> dns.add(value);
                        case URI -> uris.add(value);
                        case IP -> ips.add(value);
                        default -> { } // e-mail, directory and other names: not identities a rule names
                    }
                }
            }
        } catch (CertificateParsingException e) {
            throw new IllegalArgumentException("unreadable subject alternative names: " + e.getMessage(), e);
        }
        return new PeerIdentity(certificate.getSubjectX500Principal().getName(), dns, uris, ips);
    }

    /** The subject's distinguished name, RFC 2253 ({@code CN=orders,O=Example}). */
    public String subject() {
        return subject;
    }

    /**
     * The subject's common name, or empty when it has none or more than one (a name a rule could not pin down).
     * Read as a distinguished name, escapes and all: an organisational unit named {@code x,CN=admin} is no CN.
     */
    public String commonName() {
        return commonName;
    }

    private static String commonNameOf(String subject) {
        String found = "";
        try {
            for (Rdn rdn : new LdapName(subject).getRdns()) {
                if (rdn.getType().equalsIgnoreCase("CN")) {
                    if (!found.isEmpty()) {
                        return ""; // two common names: neither is the name
                    }
                    found = String.valueOf(rdn.getValue());
                }
            }
        } catch (InvalidNameException e) {
            return "";
        }
        return found;
    }

    /** The DNS names among the subject alternative names. */
    public List<String> dnsNames() {
        return dnsNames;
    }

    /** The URIs among the subject alternative names (SPIFFE IDs, for one). */
    public List<String> uris() {
        return uris;
    }

    /** The IP addresses among the subject alternative names. */
    public List<String> ipAddresses() {
        return ipAddresses;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof PeerIdentity other && subject.equals(other.subject) && dnsNames.equals(other.dnsNames)
                && uris.equals(other.uris) && ipAddresses.equals(other.ipAddresses);
    }

    @Override
    public int hashCode() {
        return Objects.hash(subject, dnsNames, uris, ipAddresses);
    }

    @Override
    public String toString() {
        return "PeerIdentity{" + subject + (dnsNames.isEmpty() ? "" : ", dns=" + dnsNames)
                + (uris.isEmpty() ? "" : ", uri=" + uris) + (ipAddresses.isEmpty() ? "" : ", ip=" + ipAddresses) + "}";
    }
}
