package io.ferry.rpc.config;

import io.ferry.rpc.option.RegistryOptionKeys;
import io.ferry.rpc.registry.RegistryOptions;

import java.nio.file.Path;
import java.time.Duration;

/**
 * Where providers and consumers find each other: a ZooKeeper address, {@code zookeeper://host:port} with optional
 * {@code ?backup=host:port,...}. An address is a ZooKeeper that runs somewhere; when none answers there, references
 * fail as for any unreachable registry (and work from the cache file), whatever the address.
 *
 * <p>For development without installing ZooKeeper, ask for an embedded one: {@link #embedded()}, or
 * {@code ?embedded=true} on a loopback address ({@code zookeeper://127.0.0.1:2181?embedded=true}; refused on any
 * other host). The first Ferry process that finds nothing listening there hosts an in-process ZooKeeper for its
 * lifetime and logs a warning that says so; other processes given the same address use it, and one of them takes
 * over hosting when the host exits. Earlier versions started one for a plain {@code zookeeper://127.0.0.1:2181}
 * whenever nothing listened there; they no longer do.
 * See {@link RegistryOptions} for every option and default.
 */
public final class RegistryConfig {
    /** The cache file setting that turns the cache file off. */
    public static final String NO_CACHE_FILE = RegistryOptionKeys.NO_FILE;

    private final RegistryOptions options;

    private RegistryConfig(RegistryOptions options) {
        this.options = options;
    }

    /**
     * A registry for development, with no ZooKeeper to install: {@code zookeeper://127.0.0.1:2181?embedded=true}.
     * This process hosts an in-process ZooKeeper there when nothing listens (and uses the one that does otherwise).
     */
    public static RegistryConfig embedded() {
        return of(RegistryOptions.EMBEDDED_ADDRESS);
    }

    /**
     * A registry at {@code address}: {@code zookeeper://host:port[?backup=host:port,...]}, or with
     * {@code ?embedded=true} on a loopback host, an in-process ZooKeeper this process hosts when nothing listens.
     */
    public static RegistryConfig of(String address) {
        try {
            return new RegistryConfig(RegistryOptions.parse(address).build());
        } catch (NoClassDefFoundError e) {
            throw missingRegistryModule(address, e);
        }
    }

    /** rpc-registry is an optional dependency: say so plainly when a registry is asked for without it. */
    private static IllegalStateException missingRegistryModule(String address, NoClassDefFoundError e) {
        return new IllegalStateException("registry: " + address + " needs rpc-registry, which is not on the class "
                + "path (add the io.ferry:rpc-registry dependency, or call providers by url)", e);
    }

    /** An address with its session and connection timeouts; null keeps a default. */
    public static RegistryConfig of(String address, Duration sessionTimeout, Duration connectionTimeout) {
        return of(address, sessionTimeout, connectionTimeout, null);
    }

    /**
     * As {@link #of(String, Duration, Duration)}, with the file the last provider lists are kept in: null keeps the
     * default ({@code ~/.ferry/registry-<application>-<host>-<port>.cache}), {@code none} keeps none.
     */
    public static RegistryConfig of(String address, Duration sessionTimeout, Duration connectionTimeout,
                                    String cacheFile) {
        try {
            RegistryOptions.Builder options = RegistryOptions.parse(address);
            if (cacheFile != null) {
                if (cacheFile.equals(NO_CACHE_FILE)) {
                    options.noCacheFile();
                } else {
                    options.cacheFile(Path.of(cacheFile));
                }
            }
            if (sessionTimeout != null) {
                options.sessionTimeout(sessionTimeout);
            }
            if (connectionTimeout != null) {
                options.connectionTimeout(connectionTimeout);
            }
            return new RegistryConfig(options.build());
        } catch (NoClassDefFoundError e) {
            throw missingRegistryModule(address, e);
        }
    }

    public static RegistryConfig of(RegistryOptions options) {
        return new RegistryConfig(options);
    }

    /** A copy with timeouts and cache file changed, for tests and tuning. */
    public static RegistryConfig of(String address, Duration sessionTimeout, Path cacheFile) {
        return new RegistryConfig(RegistryOptions.parse(address).sessionTimeout(sessionTimeout)
                .cacheFile(cacheFile).build());
    }

    public RegistryOptions options() {
        return options;
    }

    /** The address as it was configured, opt-in included: {@code zookeeper://127.0.0.1:2181?embedded=true}. */
    @Override
    public String toString() {
        return options.address();
    }
}
