package io.ferry.rpc.config.extension;

/**
 * Something Ferry finds by name through {@link java.util.ServiceLoader}: a jar registers its class in
 * {@code META-INF/services/<the provider interface>}, and builders, {@code ferry.xml} and properties name it.
 * Ferry's own balancers, clusters and filters are registered the same way. Implementations need a public no-arg
 * constructor and must be thread-safe: one instance serves every reference and service of the process.
 */
public interface Extension {
    /**
     * The name files and builders use: lower-case letters, digits and {@code -}, unique among the extensions of its
     * kind ({@code "adaptive"}, {@code "audit"}). Matched without regard to case.
     */
    String name();
}
