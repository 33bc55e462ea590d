package io.ferry.rpc.registry.internal;

import org.apache.zookeeper.client.ZKClientConfig;
import org.apache.zookeeper.common.ClientX509Util;
import org.apache.zookeeper.common.X509Exception;

import javax.net.ssl.SSLContext;

/**
 * One ZooKeeper client's TLS settings, from the registry's options: ZooKeeper reads them from the
 * {@link ZKClientConfig} that client is given, so nothing is set JVM-wide and two registries of a process may differ.
 * The key and trust files are the registry's options alone: every ZKClientConfig starts from ZooKeeper's
 * {@code zookeeper.ssl.*} system properties (which a ZooKeeper server in the same JVM also reads for itself), and
 * those naming files, passwords or an SSL context supplier are cleared here. Other ZooKeeper settings (protocols,
 * cipher suites) keep ZooKeeper's defaults and properties.
 */
public final class ZooKeeperTls {
    /** ZooKeeper's TLS needs its Netty socket; its default NIO socket speaks plain TCP only. */
    private static final String NETTY_SOCKET = "org.apache.zookeeper.ClientCnxnSocketNetty";
    private static final String PEM = "PEM";

    private ZooKeeperTls() {
    }

    /**
     * The settings of a TLS client trusting the CAs of {@code trustPath} (null: the JVM's) and presenting the key and
     * chain of {@code keyPath} (null: none), both PEM files.
     */
    public static ZKClientConfig clientConfig(String trustPath, String keyPath) {
        ZKClientConfig config = new ZKClientConfig();
        config.setProperty(ZKClientConfig.SECURE_CLIENT, "true");
        config.setProperty(ZKClientConfig.ZOOKEEPER_CLIENT_CNXN_SOCKET, NETTY_SOCKET);
        try (ClientX509Util names = new ClientX509Util()) {
            config.setProperty(names.getSslTruststoreLocationProperty(), trustPath);
            config.setProperty(names.getSslTruststoreTypeProperty(), trustPath == null ? null : PEM);
            config.setProperty(names.getSslTruststorePasswdProperty(), null);
            config.setProperty(names.getSslTruststorePasswdPathProperty(), null);
            config.setProperty(names.getSslKeystoreLocationProperty(), keyPath);
            config.setProperty(names.getSslKeystoreTypeProperty(), keyPath == null ? null : PEM);
            config.setProperty(names.getSslKeystorePasswdProperty(), null);
            config.setProperty(names.getSslKeystorePasswdPathProperty(), null);
            config.setProperty(names.getSslContextSupplierClassProperty(), null);
        }
        return config;
    }

    /**
     * The SSL context ZooKeeper makes of {@code config}: made once at start, so that a missing or unreadable file is
     * named there rather than in ZooKeeper's reconnection loop.
     *
     * @throws IllegalArgumentException naming the files and the cause
     */
    public static SSLContext sslContext(ZKClientConfig config, String files) {
        try (ClientX509Util util = new ClientX509Util()) {
            return util.createSSLContext(config);
        } catch (X509Exception.SSLContextException e) {
            throw new IllegalArgumentException("ZooKeeper TLS: cannot use " + files + ": " + rootCause(e));
        }
    }

    /** Whether ZooKeeper checks that the server's certificate names the host connected to (its default). */
    public static boolean verifiesHost(ZKClientConfig config) {
        try (ClientX509Util util = new ClientX509Util()) {
            return util.isServerHostnameVerificationEnabled(config);
        }
    }

    private static String rootCause(Throwable e) {
        Throwable cause = e;
        while (cause.getCause() != null && cause.getCause() != cause) {
            cause = cause.getCause();
        }
        return cause == e ? e.getMessage() : e.getMessage() + ": " + cause;
    }
}
