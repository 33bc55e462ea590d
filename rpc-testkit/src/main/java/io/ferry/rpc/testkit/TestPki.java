package io.ferry.rpc.testkit;

import io.netty.pkitesting.CertificateBuilder;
import io.netty.pkitesting.X509Bundle;

import javax.crypto.Cipher;
import javax.crypto.EncryptedPrivateKeyInfo;
import javax.crypto.SecretKey;
import javax.crypto.SecretKeyFactory;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.PBEKeySpec;
import javax.crypto.spec.PBEParameterSpec;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.AlgorithmParameters;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.function.UnaryOperator;

/**
 * A certificate authority for tests, and certificates it issues, written as PEM files into a directory: the files
 * Ferry's TLS options name. EC P-256 keys, so that making one takes milliseconds. The CA's own certificate is
 * {@link #caCertificate()}, the trust collection both sides are given.
 */
public final class TestPki {
    private static final Duration VALIDITY = Duration.ofDays(1);

    private final Path dir;
    private final X509Bundle ca;

    private TestPki(Path dir, X509Bundle ca) {
        this.dir = dir;
        this.ca = ca;
    }

    /** A new CA named {@code name}, its certificate written to {@code dir/<name>-ca.pem}. */
    public static TestPki create(Path dir, String name) {
        Instant now = Instant.now();
        X509Bundle ca = build(() -> new CertificateBuilder().subject("CN=" + name + " CA, O=Ferry tests")
                .notBefore(now.minus(Duration.ofMinutes(5))).notAfter(now.plus(VALIDITY)).ecp256()
                .setIsCertificateAuthority(true).buildSelfSigned());
        TestPki pki = new TestPki(dir, ca);
        pki.write(name + "-ca.pem", ca.getCertificatePEM());
        return pki;
    }

    /** The CA's certificate: the trust collection of whoever trusts this CA. */
    public Path caCertificate() {
        return dir.resolve(caFileName());
    }

    /** A provider's certificate for 127.0.0.1 and localhost, named {@code CN=<name>}. */
    public KeyPairFiles server(String name) {
        return issue(name, b -> b.addSanIpAddress("127.0.0.1").addSanDnsName("localhost")
                .addExtendedKeyUsageServerAuth());
    }

    /** A consumer's certificate, {@code CN=<name>}, with the SAN URI {@code spiffe://ferry.test/<name>}. */
    public KeyPairFiles client(String name) {
        return issue(name, b -> {
            try {
                return b.addSanUriName("spiffe://ferry.test/" + name).addExtendedKeyUsageClientAuth();
            } catch (java.net.URISyntaxException e) {
                throw new IllegalArgumentException(name, e);
            }
        });
    }

    /**
     * A certificate {@code CN=<name>} issued by this CA, valid from five minutes ago for a day unless
     * {@code customise} says otherwise; its chain and key written to {@code <name>.pem} and {@code <name>-key.pem}.
     */
    public KeyPairFiles issue(String name, UnaryOperator<CertificateBuilder> customise) {
        Instant now = Instant.now();
        CertificateBuilder builder = new CertificateBuilder().subject("CN=" + name + ", O=Ferry tests")
                .notBefore(now.minus(Duration.ofMinutes(5))).notAfter(now.plus(VALIDITY)).ecp256();
        X509Bundle issued = build(() -> customise.apply(builder).buildIssuedBy(ca));
        return new KeyPairFiles(write(name + ".pem", issued.getCertificatePathPEM()),
                write(name + "-key.pem", issued.getPrivateKeyPEM()));
    }

    /**
     * The private key and certificate chain of {@code files} in one PEM file, {@code dir/fileName}: how ZooKeeper's
     * PEM key stores take them.
     */
    public Path keyAndChain(KeyPairFiles files, String fileName) {
        try {
            return write(fileName, Files.readString(files.privateKey(), StandardCharsets.US_ASCII)
                    + Files.readString(files.certificateChain(), StandardCharsets.US_ASCII));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The private key of {@code files} encrypted with {@code password}, as {@code openssl pkcs8 -topk8 -v2 aes256}
     * writes it (PKCS#8, PBES2 with PBKDF2-HMAC-SHA256 and AES-256-CBC), in {@code dir/fileName}.
     */
    public Path encryptedKey(KeyPairFiles files, String password, String fileName) {
        try {
            String pem = Files.readString(files.privateKey(), StandardCharsets.US_ASCII);
            byte[] plain = Base64.getMimeDecoder().decode(pem.replaceAll("-----[A-Z ]+-----", ""));
            String algorithm = "PBEWithHmacSHA256AndAES_256";
            byte[] salt = new byte[16];
            byte[] iv = new byte[16];
            SecureRandom random = new SecureRandom();
            random.nextBytes(salt);
            random.nextBytes(iv);
            SecretKey key = SecretKeyFactory.getInstance(algorithm)
                    .generateSecret(new PBEKeySpec(password.toCharArray()));
            Cipher cipher = Cipher.getInstance(algorithm);
            cipher.init(Cipher.ENCRYPT_MODE, key, new PBEParameterSpec(salt, 10_000, new IvParameterSpec(iv)));
            // the JDK names PBES2's parameters by the scheme only when they are read back from their encoding
            AlgorithmParameters pbes2 = AlgorithmParameters.getInstance("PBES2");
            pbes2.init(cipher.getParameters().getEncoded());
            byte[] encrypted = new EncryptedPrivateKeyInfo(pbes2, cipher.doFinal(plain)).getEncoded();
            return write(fileName, "-----BEGIN ENCRYPTED PRIVATE KEY-----\n"
                    + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII))
                    .encodeToString(encrypted) + "\n-----END ENCRYPTED PRIVATE KEY-----\n");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot encrypt a test key", e);
        }
    }

    /** Writes {@code text} to {@code dir/fileName} through a rename, as a deployment would replace it. */
    public Path write(String fileName, String text) {
        try {
            Path target = dir.resolve(fileName);
            Path temporary = Files.createTempFile(dir, fileName, ".tmp");
            Files.writeString(temporary, text, StandardCharsets.US_ASCII);
            return Files.move(temporary, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private String caFileName() {
        String subject = ca.getCertificate().getSubjectX500Principal().getName();
        return subject.substring(3, subject.indexOf(" CA")) + "-ca.pem";
    }

    private static X509Bundle build(Builder builder) {
        try {
            return builder.build();
        } catch (Exception e) {
            throw new IllegalStateException("cannot make a test certificate", e);
        }
    }

    @FunctionalInterface
    private interface Builder {
        X509Bundle build() throws Exception;
    }

    /** A certificate chain and its private key, as PEM files. */
    public record KeyPairFiles(Path certificateChain, Path privateKey) {
    }
}
