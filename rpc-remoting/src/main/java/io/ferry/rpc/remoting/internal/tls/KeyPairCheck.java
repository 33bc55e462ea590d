package io.ferry.rpc.remoting.internal.tls;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.Signature;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.PKCS8EncodedKeySpec;
import java.time.Instant;
import java.util.Base64;
import java.util.Collection;
import java.util.Date;

/**
 * What a context builder lets through but every handshake would then fail on: a private key that does not belong
 * to the certificate, and a certificate out of its validity period. Checked before a new pair replaces one in use.
 */
final class KeyPairCheck {
    private static final byte[] PROBE = "ferry key pair check".getBytes(StandardCharsets.US_ASCII);

    private KeyPairCheck() {
    }

    /** The chain's first certificate, the leaf. */
    static X509Certificate leaf(TlsMaterial.File chain) {
        try {
            Collection<? extends java.security.cert.Certificate> all = CertificateFactory.getInstance("X.509")
                    .generateCertificates(new ByteArrayInputStream(chain.bytes()));
            if (all.isEmpty()) {
                throw new IllegalArgumentException(chain.describe() + " (expected: a PEM certificate chain; it holds "
                        + "no certificate)");
            }
            return (X509Certificate) all.iterator().next();
        } catch (GeneralSecurityException e) {
            throw new IllegalArgumentException(chain.describe() + " (expected: a PEM certificate chain; "
                    + e.getMessage() + ")", e);
        }
    }

    /**
     * Fails unless the unencrypted PKCS#8 key in {@code key} signs what the leaf's public key verifies; an
     * encrypted key is left to the context builder.
     */
    static void keyMatches(X509Certificate leaf, TlsMaterial.File chain, TlsMaterial.File key) {
        String pem = new String(key.bytes(), StandardCharsets.US_ASCII);
        int begin = pem.indexOf("-----BEGIN PRIVATE KEY-----");
        int end = pem.indexOf("-----END PRIVATE KEY-----");
        if (begin < 0 || end < begin) {
            return;
        }
        String base64 = pem.substring(begin + "-----BEGIN PRIVATE KEY-----".length(), end).replaceAll("\\s", "");
        PublicKey publicKey = leaf.getPublicKey();
        try {
            PrivateKey privateKey = KeyFactory.getInstance(publicKey.getAlgorithm())
                    .generatePrivate(new PKCS8EncodedKeySpec(Base64.getMimeDecoder().decode(base64)));
            String algorithm = switch (publicKey.getAlgorithm()) {
                case "EC" -> "SHA256withECDSA";
                case "RSA" -> "SHA256withRSA";
                case "Ed25519", "EdDSA" -> "Ed25519";
                default -> null;
            };
            if (algorithm == null) {
                return;
            }
            Signature signer = Signature.getInstance(algorithm);
            signer.initSign(privateKey);
            signer.update(PROBE);
            byte[] signature = signer.sign();
            Signature verifier = Signature.getInstance(algorithm);
            verifier.initVerify(publicKey);
            verifier.update(PROBE);
            if (!verifier.verify(signature)) {
                throw mismatch(chain, key, "it is not the certificate's key");
            }
        } catch (GeneralSecurityException | IllegalArgumentException e) {
            throw mismatch(chain, key, e.getMessage());
        }
    }

    /** Why the leaf cannot be used at {@code now}, or null when it is within its validity period. */
    static String outOfValidity(X509Certificate leaf, Instant now) {
        Date at = Date.from(now);
        if (at.before(leaf.getNotBefore())) {
            return "not valid before " + leaf.getNotBefore().toInstant();
        }
        if (at.after(leaf.getNotAfter())) {
            return "expired on " + leaf.getNotAfter().toInstant();
        }
        return null;
    }

    private static IllegalArgumentException mismatch(TlsMaterial.File chain, TlsMaterial.File key, String why) {
        return new IllegalArgumentException(key.describe() + " (expected: the private key of " + chain.describe()
                + "; " + why + ")");
    }
}
