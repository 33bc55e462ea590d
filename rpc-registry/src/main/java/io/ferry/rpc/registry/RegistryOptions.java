package io.ferry.rpc.registry;

import io.ferry.rpc.option.Option;
import io.ferry.rpc.option.OptionValues;
import io.ferry.rpc.option.RegistryOptionKeys;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static io.ferry.rpc.option.RegistryOptionKeys.CONNECTION_TIMEOUT;
import static io.ferry.rpc.option.RegistryOptionKeys.FILE;
import static io.ferry.rpc.option.RegistryOptionKeys.NO_FILE;
import static io.ferry.rpc.option.RegistryOptionKeys.PASSWORD;
import static io.ferry.rpc.option.RegistryOptionKeys.SESSION_TIMEOUT;
import static io.ferry.rpc.option.RegistryOptionKeys.USERNAME;
import static io.ferry.rpc.option.RegistryOptionKeys.ZOOKEEPER_KEY_CERT_CHAIN_PATH;
import static io.ferry.rpc.option.RegistryOptionKeys.ZOOKEEPER_TLS;
import static io.ferry.rpc.option.RegistryOptionKeys.ZOOKEEPER_TRUST_CERT_COLLECTION_PATH;

/**
 * How to reach ZooKeeper. Immutable; build with {@link #builder()} or parse {@link #parse(String)}. The options
 * files also set (session and connection timeouts, cache file) are declared once, in {@link RegistryOptionKeys}:
 * the builder checks values through them and reads their defaults there.
 *
 * <table>
 *   <caption>Options and defaults</caption>
 *   <tr><th>option</th><th>default</th></tr>
 *   <tr><td>addresses</td><td>127.0.0.1:2181; more are backups</td></tr>
 *   <tr><td>sessionTimeout</td><td>{@link RegistryOptionKeys#SESSION_TIMEOUT} (the server caps it; 40 s with a
 *       2 s tick)</td></tr>
 *   <tr><td>connectionTimeout</td><td>{@link RegistryOptionKeys#CONNECTION_TIMEOUT}: how long start-up waits for a
 *       first connection</td></tr>
 *   <tr><td>root</td><td>dubbo: Dubbo's layout, /dubbo/{interface}/providers</td></tr>
 *   <tr><td>cacheFile</td><td>{@link RegistryOptionKeys#FILE}: the last provider lists, for cold starts while
 *       ZooKeeper is down</td></tr>
 *   <tr><td>embedded</td><td>false: only an explicit opt-in hosts an in-process server</td></tr>
 *   <tr><td>username, password</td><td>none: digest authentication, and nodes this registry creates readable and
 *       writable by these credentials only ({@link RegistryOptionKeys#USERNAME})</td></tr>
 *   <tr><td>zookeeperTls</td><td>false: TLS to ZooKeeper's secure client port, with the PEM files of
 *       {@link RegistryOptionKeys#ZOOKEEPER_TRUST_CERT_COLLECTION_PATH} and
 *       {@link RegistryOptionKeys#ZOOKEEPER_KEY_CERT_CHAIN_PATH}</td></tr>
 * </table>
 * A half-configured security setting is refused by {@link Builder#build()}: a username without a password (or the
 * other way round), TLS files without {@code zookeeperTls}, TLS to an embedded server (which speaks plain TCP).
 * {@link #toString()} and {@link #values()}{@code .toString()} never show the password.
 *
 * <h2>The embedded server: only where it was asked for</h2>
 * An address is a ZooKeeper someone runs, whatever it is: {@code zookeeper://127.0.0.1:2181} with nothing listening
 * is an unreachable ZooKeeper, as any other address is, and never starts a server. A process hosts an in-process
 * ZooKeeper only when the address says {@code embedded=true}:
 * <pre>
 * zookeeper://127.0.0.1:2181?embedded=true     host one here when nothing listens; else use the one that does
 * zookeeper://localhost:2182?embedded=true     any loopback host (127.x.x.x, localhost) and port
 * zookeeper://10.0.0.5:2181?embedded=true      refused: an embedded server serves this machine only
 * </pre>
 * (or {@link Builder#embedded(boolean)}). With it, the first process to find nothing listening hosts the server for
 * as long as it lives, and logs a warning that says so; the others are its clients, and when the host exits one of
 * them takes over hosting (and logs the same warning). It is for development and tests. Earlier versions embedded a
 * server for 127.0.0.1:2181 (or localhost:2181) whenever nothing listened there, so a production process whose
 * real local ZooKeeper was down for a moment hosted a registry of its own and split from the real one.
 */
public final class RegistryOptions {
    /** The builder's address when none is added: a ZooKeeper of your own on this machine. */
    public static final String DEFAULT_ADDRESS = "zookeeper://127.0.0.1:2181";
    /** The default address with the opt-in: an in-process server when nothing listens there. */
    public static final String EMBEDDED_ADDRESS = DEFAULT_ADDRESS + "?" + Builder.EMBEDDED + "=true";

    private final List<InetSocketAddress> addresses;
    /** The options of {@link RegistryOptionKeys#SETTINGS} set; the others read as their declared defaults. */
    private final OptionValues values;
    private final String root;
    /** Whose the default cache file is. */
    private final String application;
    private final Path cacheFile;
    private final boolean embedded;

    private RegistryOptions(Builder b) {
        if (b.addresses.isEmpty()) {
            throw new IllegalArgumentException("addresses: [] (expected: at least one host:port)");
        }
        this.addresses = b.embedded ? embeddable(List.copyOf(b.addresses)) : List.copyOf(b.addresses);
        this.values = b.values;
        this.root = b.root;
        this.application = b.application;
        String file = values.get(FILE);
        this.cacheFile = file == null ? defaultCacheFile(application, addresses.get(0))
                : file.equals(NO_FILE) ? null : Path.of(file);
        this.embedded = b.embedded;
        checkSecurity();
    }

    /** Refuses a half-configured credential or TLS setting: it would otherwise fail later, or silently in clear. */
    private void checkSecurity() {
        String username = values.get(USERNAME);
        if ((username == null) != (values.get(PASSWORD) == null)) {
            throw new IllegalArgumentException(username == null ? "username: none with a password (expected: both "
                    + "username and password, or neither)" : "password: none with username '" + username
                    + "' (expected: both username and password, or neither)");
        }
        if (username != null && username.contains(":")) {
            throw new IllegalArgumentException("username: '" + username + "' (expected: no ':', which ZooKeeper's "
                    + "digest authentication puts between the username and the password)");
        }
        if (!tls()) {
            for (Option<String> file : List.of(ZOOKEEPER_TRUST_CERT_COLLECTION_PATH, ZOOKEEPER_KEY_CERT_CHAIN_PATH)) {
                if (values.isSet(file)) {
                    throw new IllegalArgumentException(file.name() + ": " + values.get(file) + " while "
                            + ZOOKEEPER_TLS.name() + " is false (expected: " + ZOOKEEPER_TLS.name() + "=true, or no "
                            + "ZooKeeper TLS files)");
                }
            }
        } else if (embedded) {
            throw new IllegalArgumentException(Builder.EMBEDDED + "=true with " + ZOOKEEPER_TLS.name() + "=true "
                    + "(expected: one of them; an embedded ZooKeeper speaks plain TCP on loopback)");
        }
    }

    /** An embedded server is one server on this machine: one loopback address, no backups. */
    private static void checkEmbeddable(List<InetSocketAddress> addresses) {
        if (addresses.size() > 1) {
            throw new IllegalArgumentException(Builder.EMBEDDED + "=true: " + addresses.size() + " addresses "
                    + "(expected: one; an embedded ZooKeeper is a single server, never an ensemble with backups)");
        }
        InetSocketAddress address = addresses.get(0);
        if (!isLoopback(address.getHostString())) {
            throw new IllegalArgumentException(Builder.EMBEDDED + "=true: " + address.getHostString() + ":"
                    + address.getPort() + " is not a loopback address (expected: 127.0.0.1, another 127.x.x.x or "
                    + "localhost; an embedded ZooKeeper serves this machine only: for " + address.getHostString()
                    + " run a ZooKeeper there and leave out " + Builder.EMBEDDED + "=true)");
        }
    }

    /** An embedded server binds IPv4 loopback: localhost names it too, so that every process agrees on one address. */
    private static List<InetSocketAddress> embeddable(List<InetSocketAddress> addresses) {
        checkEmbeddable(addresses);
        InetSocketAddress address = addresses.get(0);
        return "localhost".equalsIgnoreCase(address.getHostString())
                ? List.of(InetSocketAddress.createUnresolved("127.0.0.1", address.getPort())) : addresses;
    }

    /** localhost or a 127.x.x.x literal; no name is looked up. */
    private static boolean isLoopback(String host) {
        return "localhost".equalsIgnoreCase(host) || host.matches("127(\\.(25[0-5]|2[0-4]\\d|1?\\d?\\d)){3}");
    }

    public static Builder builder() {
        return new Builder();
    }

    /** ~/.ferry/registry-{application}-{host}-{port}.cache: one file per application, as Dubbo keeps them. */
    private static Path defaultCacheFile(String application, InetSocketAddress first) {
        String safe = application.replaceAll("[^A-Za-z0-9._-]", "_");
        return Path.of(System.getProperty("user.home"), ".ferry",
                "registry-" + safe + "-" + first.getHostString() + "-" + first.getPort() + ".cache");
    }

    /** These options with the default cache file named after {@code application}, unless one was set. */
    public RegistryOptions forApplication(String application) {
        if (values.isSet(FILE)) {
            return this;
        }
        Builder b = builder().clearAddresses().options(values).root(root).embedded(embedded);
        b.application = application;
        addresses.forEach(a -> b.address(a.getHostString(), a.getPort()));
        return b.build();
    }

    /**
     * Parses {@code zookeeper://host:port[?backup=host:port,host:port][&embedded=true]}. {@code embedded=true} (on a
     * loopback host, without backups: {@link #build()} refuses anything else) lets this process host an in-process
     * ZooKeeper there when nothing listens; without it the address is only ever a client's.
     */
    public static Builder parse(String address) {
        String prefix = "zookeeper://";
        if (address == null || !address.startsWith(prefix)) {
            throw new IllegalArgumentException("registry address: " + address
                    + " (expected: zookeeper://host:port[?backup=host:port,...])");
        }
        int at = address.indexOf('@');
        int authorityEnd = address.indexOf('/', prefix.length());
        if (at > 0 && (authorityEnd < 0 || at < authorityEnd)) {
            // Dubbo takes zookeeper://user:password@host; an address is printed everywhere, so Ferry takes neither
            throw new IllegalArgumentException("registry address: " + prefix + Option.MASK + address.substring(at)
                    + " (expected: no user or password in the address; set the registry's username and password)");
        }
        ServiceUrl url = ServiceUrl.parse(address);
        if (url.port() <= 0) {
            throw new IllegalArgumentException("registry address: " + address + " (expected: a port)");
        }
        String backup = url.parameter("backup", "");
        boolean embedded = embeddedParameter(address, url.parameter(Builder.EMBEDDED));
        Builder builder = builder().clearAddresses().address(url.host(), url.port());
        for (String hostPort : backup.split(",")) {
            if (!hostPort.isBlank()) {
                int colon = hostPort.lastIndexOf(':');
                if (colon <= 0) {
                    throw new IllegalArgumentException("registry backup: " + hostPort + " (expected: host:port)");
                }
                builder.address(hostPort.substring(0, colon), Integer.parseInt(hostPort.substring(colon + 1)));
            }
        }
        return builder.embedded(embedded);
    }

    private static boolean embeddedParameter(String address, String value) {
        if (value == null || value.equalsIgnoreCase("false")) {
            return false;
        }
        if (value.equalsIgnoreCase("true")) {
            return true;
        }
        throw new IllegalArgumentException("registry address: " + address + ": " + Builder.EMBEDDED + ": '" + value
                + "' (expected: true or false)");
    }

    public List<InetSocketAddress> addresses() {
        return addresses;
    }

    /** {@code host:port,host:port} as ZooKeeper clients take it. */
    public String connectString() {
        List<String> parts = new ArrayList<>();
        for (InetSocketAddress a : addresses) {
            parts.add(a.getHostString() + ":" + a.getPort());
        }
        return String.join(",", parts);
    }

    public Duration sessionTimeout() {
        return values.get(SESSION_TIMEOUT);
    }

    public Duration connectionTimeout() {
        return values.get(CONNECTION_TIMEOUT);
    }

    /** The options of {@link RegistryOptionKeys#SETTINGS} set; one not set reads as its declared default. */
    public OptionValues values() {
        return values;
    }

    public String root() {
        return root;
    }

    /** The cache file, or null when {@link Builder#noCacheFile()} turned it off. */
    public Path cacheFile() {
        return cacheFile;
    }

    /** The username of digest authentication, or null when ZooKeeper is used without credentials. */
    public String username() {
        return values.get(USERNAME);
    }

    /** {@code username:password}, as ZooKeeper's digest scheme takes it; null without credentials. */
    byte[] digestAuthentication() {
        String username = username();
        return username == null ? null
                : (username + ":" + values.get(PASSWORD)).getBytes(StandardCharsets.UTF_8);
    }

    /** Whether the connection to ZooKeeper is TLS ({@link RegistryOptionKeys#ZOOKEEPER_TLS}). */
    public boolean tls() {
        return values.get(ZOOKEEPER_TLS);
    }

    /** Whether this process may host an in-process server on the address: only when asked for. */
    public boolean embedded() {
        return embedded;
    }

    /**
     * The address as {@link #parse(String)} takes it, opt-in included:
     * {@code zookeeper://10.0.0.1:2181?backup=10.0.0.2:2181} or {@code zookeeper://127.0.0.1:2181?embedded=true}.
     */
    public String address() {
        InetSocketAddress first = addresses.get(0);
        StringBuilder sb = new StringBuilder("zookeeper://").append(first.getHostString()).append(':')
                .append(first.getPort());
        if (addresses.size() > 1) {
            sb.append("?backup=").append(connectString().substring(connectString().indexOf(',') + 1));
        }
        if (embedded) {
            sb.append(addresses.size() > 1 ? '&' : '?').append(Builder.EMBEDDED).append("=true");
        }
        return sb.toString();
    }

    @Override
    public String toString() {
        return address();
    }

    public static final class Builder {
        /** The address parameter that opts in to an embedded server. */
        static final String EMBEDDED = "embedded";

        private final List<InetSocketAddress> addresses = new ArrayList<>(
                List.of(InetSocketAddress.createUnresolved("127.0.0.1", 2181)));
        private boolean defaultAddress = true;
        private OptionValues values = OptionValues.none();
        private String root = "dubbo";
        private String application = "ferry";
        private boolean embedded;

        private Builder clearAddresses() {
            addresses.clear();
            defaultAddress = false;
            return this;
        }

        /** Adds an address; the first one replaces the default. */
        public Builder address(String host, int port) {
            if (port <= 0 || port > 65535) {
                throw new IllegalArgumentException("registry port: " + port + " (expected: 1..65535)");
            }
            if (defaultAddress) {
                addresses.clear();
                defaultAddress = false;
            }
            addresses.add(InetSocketAddress.createUnresolved(host, port));
            return this;
        }

        /**
         * Sets one of {@link RegistryOptionKeys#SETTINGS}, checked by the option.
         *
         * @throws IllegalArgumentException naming the option, the value and its range, or the options taken
         */
        public <T> Builder option(Option<T> option, T value) {
            values = values.with(accepted(option), value);
            return this;
        }

        /** Sets every option {@code set} sets (each one of {@link RegistryOptionKeys#SETTINGS}). */
        public Builder options(OptionValues set) {
            set.options().forEach(Builder::accepted);
            values = values.with(set);
            return this;
        }

        private static <T> Option<T> accepted(Option<T> option) {
            if (!RegistryOptionKeys.SETTINGS.contains(option)) {
                throw new IllegalArgumentException("option: " + option + " (expected: a registry option, one of "
                        + RegistryOptionKeys.SETTINGS.stream().map(Option::name).sorted().toList() + ")");
            }
            return option;
        }

        /** {@link RegistryOptionKeys#SESSION_TIMEOUT}. */
        public Builder sessionTimeout(Duration timeout) {
            return option(SESSION_TIMEOUT, timeout);
        }

        /** {@link RegistryOptionKeys#CONNECTION_TIMEOUT}. */
        public Builder connectionTimeout(Duration timeout) {
            return option(CONNECTION_TIMEOUT, timeout);
        }

        /**
         * Digest authentication with {@link RegistryOptionKeys#USERNAME} and {@link RegistryOptionKeys#PASSWORD}:
         * every node this registry creates can then be read and written with these credentials only.
         */
        public Builder credentials(String username, String password) {
            return option(USERNAME, username).option(PASSWORD, password);
        }

        /**
         * TLS to ZooKeeper's secure client port, trusting the CAs of a PEM file
         * ({@link RegistryOptionKeys#ZOOKEEPER_TRUST_CERT_COLLECTION_PATH}).
         */
        public Builder tls(String trustCertCollectionPath) {
            return option(ZOOKEEPER_TLS, true).option(ZOOKEEPER_TRUST_CERT_COLLECTION_PATH, trustCertCollectionPath);
        }

        /**
         * This client's private key and certificate chain, in one PEM file, for a secure port that requires client
         * certificates ({@link RegistryOptionKeys#ZOOKEEPER_KEY_CERT_CHAIN_PATH}); needs {@link #tls(String)}.
         */
        public Builder tlsKeyCertChain(String keyAndCertificateChainPath) {
            return option(ZOOKEEPER_KEY_CERT_CHAIN_PATH, keyAndCertificateChainPath);
        }

        public Builder root(String root) {
            if (root == null || root.isBlank() || root.contains("/")) {
                throw new IllegalArgumentException("root: " + root + " (expected: a node name, e.g. dubbo)");
            }
            this.root = root;
            return this;
        }

        /** {@link RegistryOptionKeys#FILE}: the cache file, or null for the default one. */
        public Builder cacheFile(Path cacheFile) {
            values = cacheFile == null ? values.without(FILE) : values.with(FILE, cacheFile.toString());
            return this;
        }

        /** No cache file: a consumer starting while ZooKeeper is down then finds no provider until it is back. */
        public Builder noCacheFile() {
            return option(FILE, NO_FILE);
        }

        /**
         * With {@code true}, this process hosts an in-process ZooKeeper on the address when nothing listens there
         * (for development and tests; the address must be one loopback host, which {@link #build()} checks). The
         * default, {@code false}: the address is a ZooKeeper someone else runs, reachable or not.
         */
        public Builder embedded(boolean embedded) {
            this.embedded = embedded;
            return this;
        }

        public RegistryOptions build() {
            return new RegistryOptions(this);
        }
    }
}
