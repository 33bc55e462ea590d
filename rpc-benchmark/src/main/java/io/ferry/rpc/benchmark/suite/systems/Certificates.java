package io.ferry.rpc.benchmark.suite.systems;

import io.ferry.rpc.testkit.TestPki;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The TLS systems' certificates, as PEM files in one directory: a CA made for the run, the provider's certificate
 * for 127.0.0.1 that it issued, and a consumer key pair (Dubbo's consumer uses TLS only when it has one; no provider
 * asks for it, so every TLS row is one-way TLS). The suite's JVM makes them once, on first use, and passes the
 * directory to the provider's JVM and the benchmark forks as {@code -Dbench.tlsDir}, so that both sides of a
 * measurement trust the same CA.
 */
public record Certificates(Path dir) {
    /** The system property naming the directory in the JVMs the suite starts. */
    public static final String DIR_PROPERTY = "bench.tlsDir";
    private static final String CA = "bench";
    private static final String PROVIDER = "provider";
    private static final String CONSUMER = "consumer";

    private static Certificates made;

    /**
     * The directory {@code -Dbench.tlsDir} names, else one made for this JVM on first use (a temporary directory,
     * removed when the JVM exits).
     */
    public static synchronized Certificates ofThisRun() {
        String given = System.getProperty(DIR_PROPERTY);
        if (given != null) {
            return existing(Path.of(given));
        }
        if (made == null) {
            made = make();
        }
        return made;
    }

    private static Certificates existing(Path dir) {
        Certificates certificates = new Certificates(dir);
        for (Path file : certificates.files()) {
            if (!Files.isReadable(file)) {
                throw new IllegalStateException("-D" + DIR_PROPERTY + "=" + dir + ": no " + file.getFileName()
                        + " (expected: the directory the suite made for its TLS systems)");
            }
        }
        return certificates;
    }

    private static Certificates make() {
        try {
            Path dir = Files.createTempDirectory("ferry-bench-tls");
            dir.toFile().deleteOnExit();
            TestPki pki = TestPki.create(dir, CA);
            pki.server(PROVIDER);
            pki.client(CONSUMER);
            Certificates certificates = new Certificates(dir);
            // registered after the directory, so deleted before it
            certificates.files().forEach(f -> f.toFile().deleteOnExit());
            return certificates;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot make the TLS systems' certificates", e);
        }
    }

    private List<Path> files() {
        return List.of(ca(), providerChain(), providerKey(), consumerChain(), consumerKey());
    }

    /** The CA's certificate: what every consumer trusts. */
    public Path ca() {
        return dir.resolve(CA + "-ca.pem");
    }

    /** The provider's certificate chain, for 127.0.0.1 and localhost. */
    public Path providerChain() {
        return dir.resolve(PROVIDER + ".pem");
    }

    public Path providerKey() {
        return dir.resolve(PROVIDER + "-key.pem");
    }

    /** A consumer certificate: Dubbo's consumer needs a key pair to use TLS at all; no provider asks for it. */
    public Path consumerChain() {
        return dir.resolve(CONSUMER + ".pem");
    }

    public Path consumerKey() {
        return dir.resolve(CONSUMER + "-key.pem");
    }

    /** The flag that hands these files to another JVM. */
    String jvmOption() {
        return "-D" + DIR_PROPERTY + "=" + dir;
    }
}
