package io.ferry.rpc.config;

import io.ferry.rpc.config.internal.RegistryBridges;
import io.ferry.rpc.option.Option;
import io.ferry.rpc.option.OptionValues;
import io.ferry.rpc.option.RegistryOptionKeys;
import io.ferry.rpc.registry.Registry;
import io.ferry.rpc.registry.RegistryOptions;

import java.nio.file.Path;
import java.time.Duration;

/**
 * Where providers and consumers find each other: an address whose scheme names the registry, and its settings
 * (session and connection timeouts, cache file; {@link RegistryOptionKeys}). Ferry's own registry is ZooKeeper,
 * {@code zookeeper://host:port} with optional {@code ?backup=host:port,...}; another scheme names a registry a jar
 * registers (a {@code RegistryProvider} of that name), and an address whose scheme none registers is refused here,
 * naming the schemes there are. Every registry needs rpc-registry on the class path.
 *
 * <p>A ZooKeeper address is a ZooKeeper that runs somewhere; when none answers there, references fail as for any
 * unreachable registry (and work from the cache file), whatever the address. For development without installing
 * ZooKeeper, ask for an embedded one: {@link #embedded()}, or {@code ?embedded=true} on a loopback address
 * ({@code zookeeper://127.0.0.1:2181?embedded=true}; refused on any other host). The first Ferry process that finds
 * nothing listening there hosts an in-process ZooKeeper for its lifetime and logs a warning that says so; other
 * processes given the same address use it, and one of them takes over hosting when the host exits. Earlier versions
 * started one for a plain {@code zookeeper://127.0.0.1:2181} whenever nothing listened there; they no longer do.
 * See {@link RegistryOptions} for every ZooKeeper option and default.
 *
 * <p>Security, off by default as in Dubbo: a username and password ({@link Builder#credentials}, Dubbo's
 * {@code <registry username=".." password="..">}) authenticate with ZooKeeper's digest scheme, and every node Ferry
 * creates can then be read and written with them only; {@code zookeeperTls} ({@link Builder#zookeeperTls}) speaks
 * TLS to ZooKeeper's secure client port. The password is never shown: {@link #toString()} is the address, and
 * {@link #settings()} prints it as {@code ****}.
 * <pre>
 * RegistryConfig.builder("zookeeper://10.0.0.5:2281").credentials("shop", password)
 *         .zookeeperTls("/etc/ferry/zk-ca.pem").build();
 * </pre>
 */
public final class RegistryConfig {
    /** The cache file setting that turns the cache file off. */
    public static final String NO_CACHE_FILE = RegistryOptionKeys.NO_FILE;

    private static final String ZOOKEEPER = "zookeeper";

    private final String address;
    private final OptionValues settings;
    /** The ZooKeeper registry's parsed options; null for another scheme. */
    private final RegistryOptions zookeeper;

    private RegistryConfig(String address, OptionValues settings, RegistryOptions zookeeper) {
        this.address = address;
        this.settings = settings;
        this.zookeeper = zookeeper;
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
     * {@code ?embedded=true} on a loopback host, an in-process ZooKeeper this process hosts when nothing listens; or
     * {@code <scheme>://...} for a registry a jar registers under that scheme.
     *
     * @throws IllegalArgumentException when no registry of the address's scheme is registered, naming the schemes
     *                                  there are, or when the ZooKeeper address is wrong
     */
    public static RegistryConfig of(String address) {
        return of(address, OptionValues.none());
    }

    /**
     * A registry at {@code address} with {@code settings}, options of {@link RegistryOptionKeys#SETTINGS} (the
     * session and connection timeouts, the cache file, credentials and TLS), each checked by its option.
     */
    public static RegistryConfig of(String address, OptionValues settings) {
        for (Option<?> option : settings.options()) {
            if (!RegistryOptionKeys.SETTINGS.contains(option)) {
                throw new IllegalArgumentException("option: " + option + " (expected: a registry option, one of "
                        + RegistryOptionKeys.SETTINGS.stream().map(Option::name).sorted().toList() + ")");
            }
        }
        requireRegistryModule(address);
        RegistryOptions zookeeper = isZooKeeper(address)
                ? RegistryOptions.parse(address).options(settings).build() : null;
        RegistryBridges.provider(address); // refuses a scheme that nothing registers
        return new RegistryConfig(zookeeper != null ? zookeeper.address() : address, settings, zookeeper);
    }

    private static boolean isZooKeeper(String address) {
        return address != null && address.regionMatches(true, 0, ZOOKEEPER + "://", 0, ZOOKEEPER.length() + 3);
    }

    /**
     * rpc-registry is an optional dependency, and every registry needs it (a provider returns its Registry): say so
     * plainly when a registry is asked for without it.
     */
    private static void requireRegistryModule(String address) {
        try {
            Registry.class.getName();
        } catch (NoClassDefFoundError e) {
            throw new IllegalStateException("registry: " + address + " needs rpc-registry, which is not on the "
                    + "class path (add the io.ferry:rpc-registry dependency, or call providers by url)", e);
        }
    }

    /** A registry at {@code address} whose settings are given one by one; see {@link #of(String)}. */
    public static Builder builder(String address) {
        return new Builder(address);
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
        OptionValues settings = OptionValues.none();
        if (sessionTimeout != null) {
            settings = settings.with(RegistryOptionKeys.SESSION_TIMEOUT, sessionTimeout);
        }
        if (connectionTimeout != null) {
            settings = settings.with(RegistryOptionKeys.CONNECTION_TIMEOUT, connectionTimeout);
        }
        if (cacheFile != null) {
            settings = settings.with(RegistryOptionKeys.FILE, cacheFile);
        }
        return of(address, settings);
    }

    /** A ZooKeeper registry with options built in code. */
    public static RegistryConfig of(RegistryOptions options) {
        return new RegistryConfig(options.address(), options.values(), options);
    }

    /** A copy with timeouts and cache file changed, for tests and tuning. */
    public static RegistryConfig of(String address, Duration sessionTimeout, Path cacheFile) {
        return of(address, sessionTimeout, null, cacheFile == null ? null : cacheFile.toString());
    }

    /**
     * The address as it was configured, opt-in included: {@code zookeeper://127.0.0.1:2181?embedded=true} (a
     * ZooKeeper address as it parses: {@code localhost} with the opt-in is {@code 127.0.0.1}).
     */
    public String address() {
        return address;
    }

    /** The scheme of the address, which names the registry: {@code zookeeper}. */
    public String scheme() {
        int end = address.indexOf("://");
        return end < 0 ? "" : address.substring(0, end);
    }

    /**
     * The settings given beside the address, options of {@link RegistryOptionKeys#SETTINGS}; one not set reads as
     * its declared default ({@code settings().get(RegistryOptionKeys.SESSION_TIMEOUT)}).
     */
    public OptionValues settings() {
        return settings;
    }

    /**
     * The ZooKeeper registry's options, parsed from the address and the settings.
     *
     * @throws IllegalStateException when the address names another registry
     */
    public RegistryOptions options() {
        if (zookeeper == null) {
            throw new IllegalStateException("registry: " + address + " is not a ZooKeeper address (expected: "
                    + "zookeeper://host:port; read address() and settings() for another registry)");
        }
        return zookeeper;
    }

    /** The address as it was configured, opt-in included: {@code zookeeper://127.0.0.1:2181?embedded=true}. */
    @Override
    public String toString() {
        return address;
    }

    /** A registry's address and settings, checked together by {@link #build()}. */
    public static final class Builder {
        private final String address;
        private OptionValues settings = OptionValues.none();

        private Builder(String address) {
            this.address = address;
        }

        /**
         * Sets one of {@link RegistryOptionKeys#SETTINGS}, its value checked by the option.
         *
         * @throws IllegalArgumentException naming the option, the value and its range
         */
        public <T> Builder option(Option<T> option, T value) {
            settings = settings.with(option, value);
            return this;
        }

        /**
         * ZooKeeper digest authentication ({@link RegistryOptionKeys#USERNAME}, {@link RegistryOptionKeys#PASSWORD}):
         * nodes Ferry creates can then be read and written with these credentials only, as Dubbo makes them.
         */
        public Builder credentials(String username, String password) {
            return option(RegistryOptionKeys.USERNAME, username).option(RegistryOptionKeys.PASSWORD, password);
        }

        /** TLS to ZooKeeper's secure client port, trusting the CAs of a PEM file. */
        public Builder zookeeperTls(String trustCertCollectionPath) {
            return option(RegistryOptionKeys.ZOOKEEPER_TLS, true)
                    .option(RegistryOptionKeys.ZOOKEEPER_TRUST_CERT_COLLECTION_PATH, trustCertCollectionPath);
        }

        /**
         * This client's private key and certificate chain in one PEM file, for a secure port that requires client
         * certificates (ZooKeeper's default).
         */
        public Builder zookeeperKeyCertChain(String keyAndCertificateChainPath) {
            return option(RegistryOptionKeys.ZOOKEEPER_KEY_CERT_CHAIN_PATH, keyAndCertificateChainPath);
        }

        /**
         * @throws IllegalArgumentException as {@link #of(String, OptionValues)}, or for a half-configured security
         *                                  setting (a username without a password, TLS files without TLS)
         */
        public RegistryConfig build() {
            return of(address, settings);
        }
    }
}
