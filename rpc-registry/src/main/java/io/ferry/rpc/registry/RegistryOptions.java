package io.ferry.rpc.registry;

import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * How to reach ZooKeeper. Immutable; build with {@link #builder()} or parse {@link #parse(String)}.
 *
 * <table>
 *   <caption>Options and defaults</caption>
 *   <tr><th>option</th><th>default</th></tr>
 *   <tr><td>addresses</td><td>127.0.0.1:2181; more are backups</td></tr>
 *   <tr><td>sessionTimeout</td><td>60 s (the server caps it; 40 s with a 2 s tick)</td></tr>
 *   <tr><td>connectionTimeout</td><td>5 s: how long start-up waits for a first connection</td></tr>
 *   <tr><td>root</td><td>dubbo: Dubbo's layout, /dubbo/{interface}/providers</td></tr>
 *   <tr><td>cacheFile</td><td>~/.ferry/registry-{application}-{host}-{port}.cache: the last provider lists, for
 *       cold starts while ZooKeeper is down</td></tr>
 *   <tr><td>embedded</td><td>true for the default address: start an in-process server when none listens</td></tr>
 * </table>
 */
public final class RegistryOptions {
    public static final String DEFAULT_ADDRESS = "zookeeper://127.0.0.1:2181";

    private final List<InetSocketAddress> addresses;
    private final Duration sessionTimeout;
    private final Duration connectionTimeout;
    private final String root;
    private final Path cacheFile;
    private final boolean cacheFileSet;
    private final boolean cacheFileOff;
    private final boolean embedded;

    private RegistryOptions(Builder b) {
        if (b.addresses.isEmpty()) {
            throw new IllegalArgumentException("addresses: [] (expected: at least one host:port)");
        }
        this.addresses = List.copyOf(b.addresses);
        this.sessionTimeout = b.sessionTimeout;
        this.connectionTimeout = b.connectionTimeout;
        this.root = b.root;
        this.cacheFileOff = b.cacheFileOff;
        this.cacheFileSet = b.cacheFile != null || cacheFileOff;
        this.cacheFile = cacheFileOff ? null : b.cacheFile != null ? b.cacheFile
                : defaultCacheFile("ferry", addresses.get(0));
        this.embedded = b.embedded;
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
        if (cacheFileSet) {
            return this;
        }
        Builder b = builder().clearAddresses().sessionTimeout(sessionTimeout).connectionTimeout(connectionTimeout)
                .root(root).embedded(embedded).cacheFile(defaultCacheFile(application, addresses.get(0)));
        addresses.forEach(a -> b.address(a.getHostString(), a.getPort()));
        return b.build();
    }

    /** Parses {@code zookeeper://host:port[?backup=host:port,host:port]}. */
    public static Builder parse(String address) {
        String prefix = "zookeeper://";
        if (address == null || !address.startsWith(prefix)) {
            throw new IllegalArgumentException("registry address: " + address
                    + " (expected: zookeeper://host:port[?backup=host:port,...])");
        }
        ServiceUrl url = ServiceUrl.parse(address);
        if (url.port() <= 0) {
            throw new IllegalArgumentException("registry address: " + address + " (expected: a port)");
        }
        String backup = url.parameter("backup", "");
        // localhost means this machine's loopback, as 127.0.0.1 does: the embedded default either way
        boolean loopback = "127.0.0.1".equals(url.host()) || "localhost".equalsIgnoreCase(url.host());
        boolean embedded = loopback && url.port() == 2181 && backup.isBlank();
        Builder builder = builder().clearAddresses().address(embedded ? "127.0.0.1" : url.host(), url.port());
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
        return sessionTimeout;
    }

    public Duration connectionTimeout() {
        return connectionTimeout;
    }

    public String root() {
        return root;
    }

    /** The cache file, or null when {@link Builder#noCacheFile()} turned it off. */
    public Path cacheFile() {
        return cacheFile;
    }

    public boolean embedded() {
        return embedded;
    }

    public static final class Builder {
        private final List<InetSocketAddress> addresses = new ArrayList<>(
                List.of(InetSocketAddress.createUnresolved("127.0.0.1", 2181)));
        private boolean defaultAddress = true;
        private Duration sessionTimeout = Duration.ofSeconds(60);
        private Duration connectionTimeout = Duration.ofSeconds(5);
        private String root = "dubbo";
        private Path cacheFile;
        private boolean cacheFileOff;
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

        public Builder sessionTimeout(Duration timeout) {
            this.sessionTimeout = positive("sessionTimeout", timeout);
            return this;
        }

        public Builder connectionTimeout(Duration timeout) {
            this.connectionTimeout = positive("connectionTimeout", timeout);
            return this;
        }

        public Builder root(String root) {
            if (root == null || root.isBlank() || root.contains("/")) {
                throw new IllegalArgumentException("root: " + root + " (expected: a node name, e.g. dubbo)");
            }
            this.root = root;
            return this;
        }

        public Builder cacheFile(Path cacheFile) {
            this.cacheFile = cacheFile;
            this.cacheFileOff = false;
            return this;
        }

        /** No cache file: a consumer starting while ZooKeeper is down then finds no provider until it is back. */
        public Builder noCacheFile() {
            this.cacheFile = null;
            this.cacheFileOff = true;
            return this;
        }

        /** Start an in-process ZooKeeper on the (first) address when nothing listens there. */
        public Builder embedded(boolean embedded) {
            this.embedded = embedded;
            return this;
        }

        public RegistryOptions build() {
            return new RegistryOptions(this);
        }

        private static Duration positive(String option, Duration value) {
            if (value == null || value.isNegative() || value.isZero()) {
                throw new IllegalArgumentException(option + ": " + (value == null ? "null" : value.toMillis() + "ms")
                        + " (expected: > 0)");
            }
            return value;
        }
    }
}
