package io.ferry.rpc.config.internal.cluster;

import io.ferry.rpc.config.option.Resolved;
import io.ferry.rpc.cluster.Directory;

/** A reference's providers, which the reference closes with itself, and which can say when one is ready. */
public interface ClusterDirectory extends Directory, AutoCloseable {
    /** Null once a provider is ready; else, after {@code timeoutNanos}, why not (what was tried). */
    String awaitReady(long timeoutNanos) throws InterruptedException;

    /** Providers out of rotation now (ejected, or on probation until a probe answers). */
    default int ejected() {
        return 0;
    }

    /**
     * Providers the registry lists now, or -1 for a directory that is not the registry's (a url's one); 0 while
     * empty-list protection holds (see {@link #kept()}).
     */
    default int listed() {
        return -1;
    }

    /**
     * Providers kept by empty-list protection: the registry lists none, and calls go to these, whose connections
     * were live when the empty list came and still are; 0 when it does not hold.
     */
    default int kept() {
        return 0;
    }

    /**
     * Providers kept while unlisted: the registry stopped listing them while listing others, their connections live,
     * and their {@code unlistedGrace} is not over (see {@link RegistryDirectory}).
     */
    default int keptUnlisted() {
        return 0;
    }

    /**
     * What the providers' registry URLs give the reference's calls now ({@code timeout}, {@code retries}, ...), or
     * null for a directory without registry URLs (a url's one).
     */
    default Resolved.ProviderValues providerValues() {
        return null;
    }

    @Override
    void close();
}
