package io.ferry.rpc.registry;

import io.ferry.rpc.registry.internal.QuietZooKeeperLogs;
import org.apache.zookeeper.server.ServerCnxnFactory;
import org.apache.zookeeper.server.SessionTrackerImpl;
import org.apache.zookeeper.server.ZooKeeperServer;
import org.apache.zookeeper.server.auth.ProviderRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;
import java.util.Map;
import java.util.HashMap;

/**
 * A ZooKeeper server inside this process, built from ZooKeeper's own server classes: bound to one address
 * (127.0.0.1 by default, never the wildcard), data in a temporary directory deleted on {@link #close()}. It can be
 * stopped and started again on the same port with its data, as a real ensemble member restarts.
 */
public final class EmbeddedZooKeeper implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(EmbeddedZooKeeper.class);

    /** The system property naming ZooKeeper's authentication provider of client certificates. */
    private static final String X509_AUTH_PROVIDER = "zookeeper.authProvider.x509";

    private final String host;
    private final Duration tickTime;
    /** The client port speaks TLS only. */
    private final boolean secure;
    private final Path dataDir;
    private int port;
    private ZooKeeperServer server;
    private ServerCnxnFactory factory;

    private EmbeddedZooKeeper(String host, int port, Duration tickTime, boolean secure) throws IOException {
        this.host = host;
        this.port = port;
        this.tickTime = tickTime;
        this.secure = secure;
        this.dataDir = Files.createTempDirectory("ferry-zookeeper-");
    }

    /** Starts a server on 127.0.0.1:{@code port} (0 picks a free port) with ZooKeeper's usual 2 s tick. */
    public static EmbeddedZooKeeper start(int port) {
        return start("127.0.0.1", port, Duration.ofSeconds(2));
    }

    /**
     * Starts a server. Sessions may last from 2 to 20 ticks; a short tick makes session expiry quick in tests.
     */
    public static EmbeddedZooKeeper start(String host, int port, Duration tickTime) {
        return start(host, port, tickTime, false);
    }

    /**
     * Starts a server whose client port speaks TLS only, as a ZooKeeper's {@code secureClientPort}: for tests of
     * TLS clients. ZooKeeper's server takes its TLS settings from JVM-wide system properties alone, and reads them on
     * every connection: set {@code zookeeper.serverCnxnFactory} to its Netty factory and the
     * {@code zookeeper.ssl.*} key store, trust store and client-auth properties before, and keep them while it runs
     * (rpc-testkit's {@code ZooKeeperServerTls} does). When {@code zookeeper.authProvider.x509} names ZooKeeper's
     * X509 provider it is registered afresh, as a server process does at its start, so that client certificates
     * are checked against the trust store set now.
     */
    public static EmbeddedZooKeeper startSecure(String host, int port, Duration tickTime) {
        if (System.getProperty(X509_AUTH_PROVIDER) != null) {
            ProviderRegistry.addOrUpdateProvider(X509_AUTH_PROVIDER);
        }
        return start(host, port, tickTime, true);
    }

    private static EmbeddedZooKeeper start(String host, int port, Duration tickTime, boolean secure) {
        QuietZooKeeperLogs.apply();
        try {
            EmbeddedZooKeeper zk = new EmbeddedZooKeeper(host, port, tickTime, secure);
            zk.startServer();
            return zk;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start an embedded ZooKeeper on " + host + ":" + port, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while starting ZooKeeper", e);
        }
    }

    /** Embedded servers started for a registry address, shared by every registry of this process. */
    private static final Map<String, Shared> SHARED = new HashMap<>();

    private static final class Shared {
        final EmbeddedZooKeeper server;
        int users;

        Shared(EmbeddedZooKeeper server) {
            this.server = server;
        }
    }

    /** A registry's hold on the process's embedded server; the last one to close stops it. */
    public interface Lease extends AutoCloseable {
        @Override
        void close();
    }

    /**
     * Takes a share of the embedded server on {@code address}: starts it when nothing listens there, joins it when
     * this process already runs it, and takes nothing (an empty result) when another process serves that address.
     * The server lives until the last share in this process is closed. Starting one is logged at DEBUG only: the
     * caller, who knows why it hosts a server, says so.
     */
    public static Optional<Lease> share(InetSocketAddress address) {
        return share(address, () -> { });
    }

    /** As {@link #share(InetSocketAddress)}, running {@code onStart} when this call started the server. */
    static Optional<Lease> share(InetSocketAddress address, Runnable onStart) {
        String key = address.getHostString() + ":" + address.getPort();
        synchronized (SHARED) {
            Shared shared = SHARED.get(key);
            if (shared == null) {
                Optional<EmbeddedZooKeeper> started = startUnlessListening(address);
                if (started.isEmpty()) {
                    return Optional.empty();
                }
                shared = new Shared(started.get());
                SHARED.put(key, shared);
                onStart.run();
            }
            shared.users++;
            Shared held = shared;
            return Optional.of(new Lease() {
                private boolean closed;

                @Override
                public void close() {
                    synchronized (SHARED) {
                        if (closed) {
                            return;
                        }
                        closed = true;
                        if (--held.users == 0) {
                            SHARED.remove(key);
                            held.server.close();
                        }
                    }
                }
            });
        }
    }

    /**
     * Starts an embedded server on {@code address} unless something already accepts connections there, in which
     * case that server is used and nothing is started.
     */
    public static Optional<EmbeddedZooKeeper> startUnlessListening(InetSocketAddress address) {
        if (isListening(address)) {
            log.info("a ZooKeeper server already listens on {}:{}; using it", address.getHostString(),
                    address.getPort());
            return Optional.empty();
        }
        EmbeddedZooKeeper zk;
        try {
            zk = start(address.getHostString(), address.getPort(), Duration.ofSeconds(2));
        } catch (UncheckedIOException lostRace) {
            if (isListening(address)) {
                // another process started one in the meantime: use it
                return Optional.empty();
            }
            throw lostRace;
        }
        log.debug("started an embedded ZooKeeper on {} (data in {})", zk.connectString(), zk.dataDir);
        return Optional.of(zk);
    }

    static boolean isListening(InetSocketAddress address) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(address.getHostString(), address.getPort()), 500);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private synchronized void startServer() throws IOException, InterruptedException {
        int tick = (int) tickTime.toMillis();
        server = new ZooKeeperServer(dataDir.toFile(), dataDir.toFile(), tick);
        server.setMinSessionTimeout(2 * tick);
        server.setMaxSessionTimeout(20 * tick);
        factory = ServerCnxnFactory.createFactory();
        factory.configure(new InetSocketAddress(host, port), 20_000, -1, secure);
        factory.startup(server);
        port = factory.getLocalPort();
    }

    public int port() {
        return port;
    }

    /** {@code host:port}, as ZooKeeper clients take it. */
    public String connectString() {
        return host + ":" + port;
    }

    /** Stops serving; the data stays, for {@link #restart()}. */
    public synchronized void stop() {
        if (factory != null) {
            factory.shutdown();
            factory = null;
        }
        if (server != null) {
            server.shutdown();
            server = null;
        }
    }

    /** Starts again on the same port with the same data. */
    public synchronized void restart() {
        stop();
        try {
            startServer();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot restart ZooKeeper on " + connectString(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** The ids of the sessions the server currently tracks. */
    public synchronized Set<Long> sessionIds() {
        Set<Long> ids = new HashSet<>();
        if (server != null && server.getSessionTracker() instanceof SessionTrackerImpl tracker) {
            tracker.getSessionExpiryMap().values().forEach(ids::addAll);
        }
        return ids;
    }

    /** Expires a session now, as the server does when a client has been silent too long. */
    public synchronized void expireSession(long sessionId) {
        if (server != null) {
            server.expire(sessionId);
        }
    }

    /** Stops the server and deletes its data. Idempotent. */
    @Override
    public void close() {
        stop();
        try (Stream<Path> files = Files.walk(dataDir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            log.debug("could not delete {}: {}", dataDir, e.toString());
        }
    }
}
